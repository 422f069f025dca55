# ==== exercise only (between "# ====" lines: the exercise's own text; all other lines are the solution's)
"""polygon_mask, python_numba: the serial rung's scanline, in Python compiled
by Numba's @njit (task sheet, the Python step). The crossing test and the
crossing column are given; you write fill_row, one row of the mask from the
polygon's crossings with it, as serial.cpp's fill_row does.
"""
# ==== end
import numpy as np
from numba import njit

REQUIRES = ("numba",)


@njit(cache=True)
def ray_crosses_edge(x0, y0, x1, y1, tx, ty):
    """Matplotlib's crossing test, the same expression as naive's."""
    above1 = y1 >= ty
    return (y0 >= ty) != above1 and (((y1 - ty) * (x0 - x1) >= (x1 - tx) * (y0 - y1)) == above1)


@njit(cache=True)
def crossing_column(x0, y0, x1, y1, ty, width):
    """The first column in [0, width] whose ray misses the edge: estimated
    from the intersection, then corrected with the test itself, so that the
    mask is the per-pixel test's bit for bit."""
    xc = x0 + (ty - y0) / (y1 - y0) * (x1 - x0)
    k = 0 if not xc > 0 else width if xc >= width else int(np.ceil(xc))
    while k > 0 and not ray_crosses_edge(x0, y0, x1, y1, float(k - 1), ty):
        k -= 1
    while k < width and ray_crosses_edge(x0, y0, x1, y1, float(k), ty):
        k += 1
    return k


@njit(cache=True)
def fill_row(vertices, y, row, crossings):
    """Row y of the mask from the polygon's crossings with it; `crossings`
    is scratch space of one slot an edge, reused from row to row."""
    # ==== yours
    # TODO: for each edge i -> i + 1 (the last back to the first) that
    # straddles the row (one end's y >= ty, the other's not), put its
    # crossing_column(...) into `crossings`, kept sorted (an insertion sort:
    # a row crosses few edges). Then fill the row: 0 up to the first
    # crossing, 1 up to the next, and so on; 0 after the last.
    # Which rows does the check's "two rows: the scanlines' bounds" case try?
    raise NotImplementedError("python_numba: write fill_row() in exercises/polygon_mask/python_numba.py")
    # ==== end


@njit(cache=True)
def polygon_mask(vertices, mask):
    crossings = np.empty(vertices.shape[0], dtype=np.int64)
    for y in range(mask.shape[0]):
        fill_row(vertices, y, mask[y], crossings)


class Rung:
    def prepare(self, inputs, outputs, context):
        self.vertices, self.mask = inputs["vertices"], outputs["mask"]

    def compute(self):
        polygon_mask(self.vertices, self.mask)
