"""spot_finding, python_numba_parallel: python_numba's bands, (frame, band) pieces in parallel.

The openmp rung's idea: the stack is cut into frames × bands pieces of 64
rows and prange shares them among the threads (frames alone would leave
threads idle on a short stack or a single image; bands alone would
synchronise inside every frame). Each piece builds its own table over its
rows plus the k rows either side, in its thread's own table memory
(numba.get_thread_id()), so the pieces share nothing but the input.
"""
import numba
from numba import njit, prange

from python_numba import BAND_ROWS, prepare_rung, threshold_rows

REQUIRES = ("numba",)


@njit(parallel=True, cache=True)
def threshold_stack(image, mask, signal, k, test, tables):
    frames, height = image.shape[0], image.shape[1]
    bands = (height + BAND_ROWS - 1) // BAND_ROWS
    for piece in prange(frames * bands):
        f, first = piece // bands, piece % bands * BAND_ROWS
        threshold_rows(image[f], mask[f], signal[f], first, min(height, first + BAND_ROWS), k, test,
                       tables[numba.get_thread_id()])


class Rung:
    def prepare(self, inputs, outputs, context):
        # One set of tables per thread Numba may run (NUMBA_NUM_THREADS: the most it can be set to).
        prepare_rung(self, inputs, outputs, context, tables=numba.config.NUMBA_NUM_THREADS)

    def compute(self):
        threshold_stack(self.image, self.mask, self.signal, self.k, self.test, self.tables)
