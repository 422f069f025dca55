# polygon_mask in Cython, for the python_cython and python_cython_prange
# rungs: the serial rung's scanline (solutions/polygon_mask/scanline.hpp)
# with C types throughout, so that Cython turns every line into C: no
# Python object is touched inside the loops. fill_row runs without the GIL,
# so that prange's threads can run it side by side.
from cython.parallel import prange

cimport cython
from libc.math cimport ceil
from libc.stdlib cimport free, malloc
from libc.string cimport memset


cdef inline bint ray_crosses_edge(double x0, double y0, double x1, double y1, double tx, double ty) noexcept nogil:
    # Matplotlib's crossing test, the same expression as naive's.
    cdef bint above1 = y1 >= ty
    return (y0 >= ty) != above1 and (((y1 - ty) * (x0 - x1) >= (x1 - tx) * (y0 - y1)) == above1)


cdef int crossing_column(double x0, double y0, double x1, double y1, double ty, int width) noexcept nogil:
    # The first column in [0, width] whose ray misses the edge: estimated
    # from the intersection, then corrected with the test itself.
    cdef double xc = x0 + (ty - y0) / (y1 - y0) * (x1 - x0)
    cdef int k
    if not xc > 0:
        k = 0
    elif xc >= width:
        k = width
    else:
        k = <int>ceil(xc)
    while k > 0 and not ray_crosses_edge(x0, y0, x1, y1, k - 1, ty):
        k -= 1
    while k < width and ray_crosses_edge(x0, y0, x1, y1, k, ty):
        k += 1
    return k


@cython.boundscheck(False)  # the checks C++ does not make either
@cython.wraparound(False)
@cython.cdivision(True)  # C's %, without Python's check for a negative or zero divisor
cdef void fill_row(const double[:, ::1] vertices, int y, unsigned char[:, ::1] mask, int* crossings) noexcept nogil:
    # Row y of the mask from the polygon's crossings with it, kept sorted
    # as they come (an insertion sort: a row crosses few edges).
    cdef int n = vertices.shape[0], width = mask.shape[1]
    cdef double ty = y, x0, y0, x1, y1
    cdef int i, j, k, at, count = 0, x = 0, c
    cdef unsigned char inside = 0
    for i in range(n):
        j = (i + 1) % n
        x0, y0, x1, y1 = vertices[i, 0], vertices[i, 1], vertices[j, 0], vertices[j, 1]
        if (y0 >= ty) != (y1 >= ty):
            k = crossing_column(x0, y0, x1, y1, ty, width)
            at = count
            while at > 0 and crossings[at - 1] > k:
                crossings[at] = crossings[at - 1]
                at -= 1
            crossings[at] = k
            count += 1
    # Each crossing flips inside/outside; a closed polygon ends each row outside.
    # A span at a time, as std::fill does (a byte at a time costs 20 times more).
    for c in range(count):
        memset(&mask[y, x], inside, crossings[c] - x)
        x = crossings[c]
        inside ^= 1
    memset(&mask[y, x], 0, width - x)


def polygon_mask(const double[:, ::1] vertices, unsigned char[:, ::1] mask):
    """The rows one after another (python_cython)."""
    cdef int y
    cdef int* crossings = <int*>malloc(max(vertices.shape[0], 1) * sizeof(int))
    with nogil:
        for y in range(mask.shape[0]):
            fill_row(vertices, y, mask, crossings)
    free(crossings)


def polygon_mask_prange(const double[:, ::1] vertices, unsigned char[:, ::1] mask):
    """The rows on OpenMP's threads (python_cython_prange): each row's
    crossings in a scratch row of its own."""
    cdef int y, n = max(vertices.shape[0], 1)
    cdef int* crossings = <int*>malloc(mask.shape[0] * n * sizeof(int))
    for y in prange(mask.shape[0], nogil=True, schedule="static"):
        fill_row(vertices, y, mask, crossings + y * n)
    free(crossings)
