"""spot_finding, python_numba: the serial rung's banded summed-area tables, compiled by Numba.

As solutions/spot_finding/summed_area.hpp: for each band of 64 rows of a
frame, a summed-area table of m, Σv and Σv² over the band and the k rows
either side that its windows reach (about 1 MB, read back while still in
the caches); every window's sums are then four table reads. DIALS' test
with √(2(m−1)) from a table and the candidates (m ≥ min_count, a > c,
b > 0) found without an unpredictable branch, so that d's square root is
taken for few pixels. The tables are int64 here (no wrap-around to reason about).
"""
import numpy as np
from numba import njit

from python_numpy import settings

REQUIRES = ("numba",)

BAND_ROWS = 64


@njit(cache=True)
def threshold_rows(image, mask, signal, row_begin, row_end, k, test, tables):
    """Marks the signal pixels of rows [row_begin, row_end) of one frame;
    `tables` (3 × rows × (W + 1): m, Σv, Σv²) is reused between calls."""
    min_count, sigma_b, sigma_s, threshold, root = test
    height, width = image.shape
    top, bottom = max(0, row_begin - k), min(height, row_end + k)
    m_table, x_table, y_table = tables[0], tables[1], tables[2]

    # The table: each row's running sums plus the table row above; row 0 and column 0 are zero,
    # so that windows clipped at the band's top or the frame's left need no special case.
    m_table[0, :] = 0
    x_table[0, :] = 0
    y_table[0, :] = 0
    for y in range(top, bottom):
        v, valid = image[y], mask[y]
        j = y - top + 1
        m_table[j, 0] = x_table[j, 0] = y_table[j, 0] = 0
        m, x, yy = 0, 0, 0
        for i in range(width):
            w = np.int64(v[i]) if valid[i] else 0  # a masked pixel adds nothing
            m += valid[i] != 0
            x += w
            yy += w * w
            m_table[j, i + 1] = m_table[j - 1, i + 1] + m
            x_table[j, i + 1] = x_table[j - 1, i + 1] + x
            y_table[j, i + 1] = y_table[j - 1, i + 1] + yy

    # The test: a window's sums from four corners of the table.
    for y in range(row_begin, row_end):
        upper = max(0, y - k) - top  # the table row above the window
        lower = min(height - 1, y + k) - top + 1  # its last row
        m_upper, m_lower = m_table[upper], m_table[lower]
        x_upper, x_lower = x_table[upper], x_table[lower]
        y_upper, y_lower = y_table[upper], y_table[lower]
        v, valid, out = image[y], mask[y], signal[y]
        for i in range(width):
            if not valid[i] or not v[i] > threshold:  # cannot be signal: skip the table
                out[i] = 0
                continue
            left, right = max(0, i - k), min(width - 1, i + k) + 1
            m = m_lower[right] - m_upper[right] - m_lower[left] + m_upper[left]
            x = x_lower[right] - x_upper[right] - x_lower[left] + x_upper[left]
            yy = y_lower[right] - y_upper[right] - y_lower[left] + y_upper[left]
            # DIALS' test (spot_finding.hpp's dispersion_test), with fewer square roots, to the same bit.
            dm, dx, dy = np.float64(m), np.float64(x), np.float64(yy)
            a = dm * dy - dx * dx - dx * (dm - 1)
            b = dm * v[i] - dx
            c = dx * sigma_b * root[m]
            # The three conditions counted, not and-ed: LLVM splits `p & q & r` into three branches,
            # and b > 0 is a coin toss on the background (a mispredicted branch for half the
            # pixels: 1.6x slower). A count of 3 is rare, so this branch is predicted.
            holds = np.uint8(m >= min_count) + np.uint8(a > c) + np.uint8(b > 0)
            if holds != 3:
                out[i] = 0
                continue
            d = sigma_s * np.sqrt(dx * dm)
            out[i] = b > d


@njit(cache=True)
def threshold_stack(image, mask, signal, k, test, tables):
    height = image.shape[1]
    for f in range(image.shape[0]):
        for first in range(0, height, BAND_ROWS):
            threshold_rows(image[f], mask[f], signal[f], first, min(height, first + BAND_ROWS), k, test, tables)


def prepare_rung(rung, inputs, outputs, context, tables):
    """What the serial and parallel rungs share: the stack as frames, DIALS'
    settings, and `tables` sets of band tables."""
    frame_shape = inputs["image"].shape[-2:]  # an H×W image is a stack of one frame
    rung.image = inputs["image"].reshape((-1,) + frame_shape)
    rung.mask = inputs["mask"].reshape((-1,) + frame_shape)
    rung.signal = outputs["signal"].reshape((-1,) + frame_shape)
    rung.k, sigma_b, sigma_s, min_count, threshold = settings(context["params"])
    window = (2 * rung.k + 1) ** 2
    with np.errstate(invalid="ignore"):  # root[0] is NaN, never read: m >= 1 wherever the pixel is valid
        root = np.sqrt(2 * (np.arange(window + 1, dtype=np.float64) - 1))  # root[m] = sqrt(2(m - 1)), correctly rounded
    rung.test = (min_count, sigma_b, sigma_s, threshold, root)
    height, width = frame_shape
    rows = min(height, BAND_ROWS) + 2 * rung.k + 1
    rung.tables = np.empty((tables, 3, rows, width + 1), dtype=np.int64)


class Rung:
    def prepare(self, inputs, outputs, context):
        prepare_rung(self, inputs, outputs, context, tables=1)

    def compute(self):
        threshold_stack(self.image, self.mask, self.signal, self.k, self.test, self.tables[0])
