"""primes, python_numba_parallel: python_numba's segments shared among threads.

The openmp rung's idea: the segments are independent, so each thread takes
one contiguous run of them (what schedule(static) gives), sieves them in
its own 32 KiB buffer and writes its own part of the flags. Its primes are
placed afresh (a division each) only at its first segment and carry over
from one segment to the next. The change from python_numba is the
prange over the threads' runs; the segment's work is the same function.
Numba's threads follow `ladder run --threads N` (NUMBA_NUM_THREADS).
"""
import numpy as np
from numba import get_num_threads, njit, prange

from python_numba import (SEGMENT_BYTES, crossing_primes, presieve_patterns, set_flags_below_7,
                          sieve_and_write_segment, sieving_primes)

REQUIRES = ("numba",)


@njit(parallel=True, cache=True)
def primes_flags(flags, patterns, starts, periods):
    n = flags.shape[0]
    segments = ((n + 29) // 30 + SEGMENT_BYTES - 1) // SEGMENT_BYTES
    primes = crossing_primes(n)  # once, shared by the threads
    threads = get_num_threads()
    for t in prange(threads):
        first, last = segments * t // threads, segments * (t + 1) // threads
        seg = np.empty(SEGMENT_BYTES, dtype=np.uint8)  # each thread's own
        steps, turns = sieving_primes(primes, first * SEGMENT_BYTES)
        for s in range(first, last):
            sieve_and_write_segment(s * SEGMENT_BYTES, primes, steps, turns, patterns, starts, periods, seg, flags)
    set_flags_below_7(flags)


class Rung:
    def prepare(self, inputs, outputs, context):
        self.flags = outputs["flags"]
        self.patterns, self.starts, self.periods = presieve_patterns()

    def compute(self):
        primes_flags(self.flags, self.patterns, self.starts, self.periods)
