"""median_filter, python_numba_parallel: python_numba's network, the rows shared among threads.

The openmp rung's idea: the rows of all frames as one prange (frames × rows,
so that a single large frame and a stack of small ones both keep every
thread busy). Each row is read-only input and written by one thread, with
that thread's own scratch (numba.get_thread_id()): no thread waits.
"""
import numba
from numba import njit, prange

from python_numba import Rung as SerialRung, filter_row, prepare_rung

REQUIRES = ("numba",)


@njit(parallel=True, cache=True)
def filter_stack(image, output, k, rows, columns, column_network, median_network, outlier, sorted_columns, window):
    height = image.shape[1]
    for row in prange(image.shape[0] * height):
        f, y = row // height, row % height
        thread = numba.get_thread_id()
        filter_row(image[f], y, output[f, y], k, rows, columns, column_network, median_network, outlier,
                   sorted_columns[thread], window[thread])


class Rung(SerialRung):
    def prepare(self, inputs, outputs, context):
        # Scratch for every thread Numba may run (NUMBA_NUM_THREADS: the most it can be set to).
        prepare_rung(self, inputs, outputs, context, scratches=numba.config.NUMBA_NUM_THREADS)

    def compute(self):
        filter_stack(self.image, self.output, self.k, self.rows, self.columns, self.column_network,
                     self.median_network, self.outlier, self.sorted_columns, self.window)
