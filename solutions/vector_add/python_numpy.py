"""vector_add, python_numpy: c = a + b as one whole-array NumPy call.

What a course writes first: `np.add(a, b, out=c)`. The loop over the
elements runs inside NumPy's compiled ufunc (SIMD, like the serial rung),
so the interpreter runs once per call, not once per element. `out=` writes
into the harness's array: `c[:] = a + b` would first make a temporary
of 64 MB at the workshop size and then copy it.
"""
import numpy as np

REQUIRES = ()


class Rung:
    def prepare(self, inputs, outputs, context):
        self.a, self.b, self.c = inputs["a"], inputs["b"], outputs["c"]

    def compute(self):
        np.add(self.a, self.b, out=self.c)
