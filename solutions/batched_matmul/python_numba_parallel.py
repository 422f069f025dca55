"""batched_matmul, python_numba_parallel: python_numba's products, the batch shared among threads.

The openmp rung's idea: the pairs are independent and all cost the same,
so the batch is cut into equal contiguous runs of whole groups of LANES
pairs, one per thread, and each thread runs python_numba's `multiply` on
its own run (its own batch-inner buffers, allocated inside). The change
from python_numba is the prange over the runs. Numba's threads follow
`ladder run --threads N` (NUMBA_NUM_THREADS).
"""
from numba import get_num_threads, njit, prange

from python_numba import LANES, multiply

REQUIRES = ("numba",)


@njit(parallel=True, cache=True)
def multiply_batch(a, b, c):
    groups = (a.shape[0] + LANES - 1) // LANES
    threads = get_num_threads()
    for t in prange(threads):
        first, last = groups * t // threads * LANES, groups * (t + 1) // threads * LANES
        multiply(a, b, c, first, min(last, a.shape[0]))


class Rung:
    def prepare(self, inputs, outputs, context):
        self.a, self.b, self.c = inputs["a"], inputs["b"], outputs["c"]

    def compute(self):
        multiply_batch(self.a, self.b, self.c)
