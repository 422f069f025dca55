"""convolution, python_numba_parallel: python_numba's rows shared out among threads.

One change from python_numba: parallel=True and prange over the image rows
(the copy into the padded buffer) and then over the output rows, the
openmp rung's idea. Every output row is written by one thread only and the
padded image is only read, so the threads never wait for one another; the
end of the first prange is the barrier that has the whole image in before
any row is computed. Numba's threads follow `ladder run --threads N`.
"""
from numba import njit, prange

from python_numba import Rung as SerialRung, copy_image_row, output_row

REQUIRES = ("numba",)


@njit(parallel=True, cache=True)
def convolve(image, kernel, padded, output):
    rows, columns = kernel.shape
    for r in prange(image.shape[0]):
        copy_image_row(image, padded, r, rows, columns)
    for y in prange(output.shape[0]):
        output_row(padded, kernel, y, output[y])


class Rung(SerialRung):
    def compute(self):
        convolve(self.image, self.kernel, self.padded, self.output)
