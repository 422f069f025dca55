"""histogram, python_numpy: one call of np.bincount.

What a course writes: `np.bincount(values, minlength=256)` counts every
value in one pass of compiled C, so the interpreter runs once a call, not
once a value. It returns int64 counts, a new array each call; they are
copied into the harness's uint32 output (256 numbers: nothing next to the
N values read).
"""
import numpy as np

REQUIRES = ()


class Rung:
    def prepare(self, inputs, outputs, context):
        self.values, self.counts = inputs["values"], outputs["counts"]

    def compute(self):
        self.counts[:] = np.bincount(self.values, minlength=256)
