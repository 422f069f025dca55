"""vector_add, python_numba_parallel: python_numba's loop, shared among threads.

One change from python_numba: parallel=True and prange, the openmp rung's
idea. Numba's default schedule gives each thread one contiguous chunk of
the elements, as `schedule(static)` does, so each thread streams its own
part of memory; with a loop this cheap, more cores mean more memory
bandwidth, nothing else. Numba's threads follow `ladder run --threads N`
(NUMBA_NUM_THREADS).
"""
from numba import njit, prange

REQUIRES = ("numba",)


@njit(parallel=True, cache=True)
def vector_add(a, b, c):
    for i in prange(c.shape[0]):
        c[i] = a[i] + b[i]


class Rung:
    def prepare(self, inputs, outputs, context):
        self.a, self.b, self.c = inputs["a"], inputs["b"], outputs["c"]

    def compute(self):
        vector_add(self.a, self.b, self.c)
