"""vector_add, python_loops: one interpreted addition per element.

The loop a newcomer writes, `c[i] = a[i] + b[i]`, over Python floats: the
arrays are read as lists (`tolist()`, untimed, in prepare) so that each
step is the interpreter's own work, without NumPy's per-element boxing on
top. Each addition is tens of bytecodes and a new float object where the
serial rung spends a fraction of an instruction: this row is the price of
the interpreter. (Two float32 values summed in float64 and rounded back to
float32 give exactly their float32 sum, so the answer is bit-exact.)
"""
import numpy as np

REQUIRES = ()


class Rung:
    def prepare(self, inputs, outputs, context):
        self.a, self.b = inputs["a"].ravel().tolist(), inputs["b"].ravel().tolist()  # any shape, as one row
        self.sums = [0.0] * len(self.a)
        self.c = outputs["c"].reshape(-1)

    def compute(self):
        a, b, sums = self.a, self.b, self.sums
        for i in range(len(a)):
            sums[i] = a[i] + b[i]
        self.c[:] = np.array(sums, dtype=np.float32)  # one rounding to float32 each
