"""histogram, python_numba_parallel: python_numba's counting, a chunk per thread.

The openmp rung's idea: the values are cut into one contiguous chunk per
thread (the generator's first-touch chunks), and each thread counts its
chunk into sub-histograms of its own, so no counter is shared while
counting. The change from python_numba is parallel=True, prange over the
chunks, and the merge: where openmp adds each thread's sums with 256
atomics, Numba has none, so the threads' copies are added up after the
parallel loop (threads x 1024 numbers: nothing next to N). Numba's threads
follow `ladder run --threads N` (NUMBA_NUM_THREADS).
"""
import numpy as np
from numba import get_num_threads, njit, prange

from python_numba import COPIES, count_into

REQUIRES = ("numba",)


@njit(parallel=True, cache=True)
def histogram(values, counts):
    n, chunks = values.shape[0], get_num_threads()
    copies = np.zeros((chunks, COPIES, 256), dtype=np.uint32)  # a thread's copies its own
    for t in prange(chunks):
        count_into(values[n * t // chunks : n * (t + 1) // chunks], copies[t])
    for value in range(256):
        total = 0
        for t in range(chunks):
            for copy in range(COPIES):
                total += copies[t, copy, value]
        counts[value] = total


class Rung:
    def prepare(self, inputs, outputs, context):
        self.values, self.counts = inputs["values"], outputs["counts"]

    def compute(self):
        histogram(self.values, self.counts)
