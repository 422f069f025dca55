"""polygon_mask, python_numba: the serial rung's scanline, compiled by Numba.

A row's pixels share their y, so each edge's crossing with the row is found
once; sorted, the crossings bound the inside spans (solutions/polygon_mask/
scanline.hpp, line for line, the sort an insertion sort). @njit compiles the functions to machine code
the first time they are called: the row's first-call cost, never in its
samples. The same algorithm as `serial`, so the two rows compare the
compilers, not the algorithms.
"""
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
    ty, width, n = float(y), row.shape[0], vertices.shape[0]
    count = 0
    for i in range(n):
        j = (i + 1) % n
        x0, y0, x1, y1 = vertices[i, 0], vertices[i, 1], vertices[j, 0], vertices[j, 1]
        if (y0 >= ty) != (y1 >= ty):
            # insertion sort as they come: a row crosses few edges
            k, at = crossing_column(x0, y0, x1, y1, ty, width), count
            while at > 0 and crossings[at - 1] > k:
                crossings[at] = crossings[at - 1]
                at -= 1
            crossings[at] = k
            count += 1
    # Each crossing flips inside/outside; a closed polygon ends each row outside.
    inside, x = 0, 0
    for c in range(count):
        row[x:crossings[c]] = inside
        x, inside = crossings[c], inside ^ 1
    row[x:] = 0


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
