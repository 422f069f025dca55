"""convolution, python_numba: the serial rung's padded, turned-around loops, compiled by Numba.

As solutions/convolution/padded.hpp: the image is copied once into a
zero-padded buffer (K-1 rows, L-1 columns of zeros on every side), so that
no read needs a bounds check, and the loops go output row, kernel row,
kernel column, output column innermost: out[x] += w * row[x + b], a
contiguous, branch-free loop that LLVM vectorises, over blocks of 1024
outputs that stay in the L1 cache. The same algorithm as `serial`, so the
two rows compare the compilers, not the algorithms.
"""
import numpy as np
from numba import njit

REQUIRES = ("numba",)

BLOCK = 1024  # outputs of a row per block: the block and the input it reads stay in L1 (4 KiB each)


@njit(cache=True)
def copy_image_row(image, padded, r, rows, columns):
    """Image row r into the inside of the padded image (its border stays zero)."""
    width = image.shape[1]
    padded[r + rows - 1, columns - 1:columns - 1 + width] = image[r]


@njit(cache=True)
def output_row(padded, kernel, y, out_row):
    """Output row y from the K padded rows from row y on: output (y, x) reads
    padded (y + a, x + b) with weight kernel[K-1-a][L-1-b] (the flip)."""
    rows, columns = kernel.shape
    out_width = out_row.shape[0]
    out_row[:] = 0
    for x0 in range(0, out_width, BLOCK):
        x1 = min(out_width, x0 + BLOCK)
        out = out_row[x0:x1]
        for a in range(rows):
            for b in range(columns):
                w = kernel[rows - 1 - a, columns - 1 - b]
                source = padded[y + a, x0 + b:x1 + b]
                # Two slices and a loop from 0: LLVM vectorises this one. Indexed
                # as out_row[x] += w * row[x + b] the loop stayed scalar, 11x
                # slower (Numba's check for negative indices was in the way).
                for x in range(out.shape[0]):
                    out[x] += w * source[x]


@njit(cache=True)
def convolve(image, kernel, padded, output):
    rows, columns = kernel.shape
    for r in range(image.shape[0]):
        copy_image_row(image, padded, r, rows, columns)
    for y in range(output.shape[0]):
        output_row(padded, kernel, y, output[y])


class Rung:
    def prepare(self, inputs, outputs, context):
        self.image, self.kernel, self.output = inputs["image"], inputs["kernel"], outputs["output"]
        (height, width), (rows, columns) = self.image.shape, self.kernel.shape
        # The zero border is written here, once; compute() fills the inside.
        self.padded = np.zeros((height + 2 * (rows - 1), width + 2 * (columns - 1)), dtype=np.float32)

    def compute(self):
        convolve(self.image, self.kernel, self.padded, self.output)
