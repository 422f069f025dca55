"""polygon_mask, python_numba_parallel: python_numba's scanline, rows in parallel.

One change from python_numba: parallel=True and prange over the rows, the
openmp rung's idea (each row's crossings and spans are its own, so the
threads need nothing from each other; each row gets its own scratch
for the crossings). Numba's threads follow
`ladder run --threads N` (NUMBA_NUM_THREADS).
"""
import numpy as np
from numba import njit, prange

from python_numba import fill_row

REQUIRES = ("numba",)


@njit(parallel=True, cache=True)
def polygon_mask(vertices, mask):
    crossings = np.empty((mask.shape[0], vertices.shape[0]), dtype=np.int64)  # a row's scratch its own
    for y in prange(mask.shape[0]):
        fill_row(vertices, y, mask[y], crossings[y])


class Rung:
    def prepare(self, inputs, outputs, context):
        self.vertices, self.mask = inputs["vertices"], outputs["mask"]

    def compute(self):
        polygon_mask(self.vertices, self.mask)
