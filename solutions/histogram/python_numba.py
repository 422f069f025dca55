"""histogram, python_numba: the serial rung's four sub-histograms, compiled by Numba.

Value i goes to copy i % 4, and the four copies are summed at the end
(solutions/histogram/serial.cpp, line for line). When equal values come in
a row (the `skewed` case), four counters take the increments instead of
one, so the four store-to-load chains run side by side instead of one
queueing behind the other. @njit compiles it the first time it is called,
never in the timed samples.
"""
import numpy as np
from numba import njit

REQUIRES = ("numba",)

COPIES = 4


@njit(cache=True)
def count_into(values, copies):
    """Adds the counts of `values` into `copies` (COPIES x 256), value i into copy i % 4."""
    n = values.shape[0]
    i = 0
    while i + COPIES <= n:
        copies[0, values[i]] += 1
        copies[1, values[i + 1]] += 1
        copies[2, values[i + 2]] += 1
        copies[3, values[i + 3]] += 1
        i += COPIES
    while i < n:  # the last n % 4
        copies[0, values[i]] += 1
        i += 1


@njit(cache=True)
def histogram(values, counts):
    copies = np.zeros((COPIES, 256), dtype=np.uint32)
    count_into(values, copies)
    for value in range(256):
        counts[value] = copies[0, value] + copies[1, value] + copies[2, value] + copies[3, value]


class Rung:
    def prepare(self, inputs, outputs, context):
        self.values, self.counts = inputs["values"], outputs["counts"]

    def compute(self):
        histogram(self.values, self.counts)
