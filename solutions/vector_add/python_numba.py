"""vector_add, python_numba: the serial rung's loop, compiled by Numba.

The element loop a newcomer writes, `c[i] = a[i] + b[i]`, under @njit:
Numba compiles it to machine code the first time it is called (never in
the timed samples), and LLVM vectorises it as the serial rung's `omp simd`
does. Against python_loops, the interpreter is gone; against serial, what
is left to compare is the compilers, and one core's memory bandwidth sets
both.
"""
from numba import njit

REQUIRES = ("numba",)


@njit(cache=True)
def vector_add(a, b, c):
    for i in range(c.shape[0]):
        c[i] = a[i] + b[i]


class Rung:
    def prepare(self, inputs, outputs, context):
        self.a, self.b, self.c = inputs["a"], inputs["b"], outputs["c"]

    def compute(self):
        vector_add(self.a, self.b, self.c)
