"""batched_matmul, python_numba: the serial rung's two ways through the batch, compiled by Numba.

products.hpp, step for step. For the slides' tiny pairs (each matrix at
most 64 elements) no row fills a vector, so LANES = 16 pairs are copied
side by side into small batch-inner buffers, element (i, k) of the 16
matrices next to each other, and each multiply-add works on 16 matrices at
once: the loop that vectorises is the batch. Larger matrices go one pair at
a time in i-k-j order, the innermost loop along contiguous rows of b and c.
The same algorithm as `serial`, so the two rows compare the compilers.
"""
import numpy as np
from numba import njit

REQUIRES = ("numba",)

LANES = 16  # pairs side by side: one AVX-512 vector, two AVX2 vectors
SMALL = 64  # elements: matrices this small go across the batch


@njit(cache=True)
def multiply_rows(a, b, c, first, last):
    """c[q] = a[q] @ b[q] for q in [first, last), one pair at a time, i-k-j:
    row i of c is the sum over k of a[i, k] times row k of b. (serial keeps
    the row in registers, compiled for p = 8, 16, 32 or 64; Numba has no
    way to say that `row` and b cannot overlap, so the row goes to memory
    and back for every k.)"""
    m, n, p = a.shape[1], a.shape[2], b.shape[2]
    row = np.empty(p, dtype=np.float32)
    for q in range(first, last):
        for i in range(m):
            row[:] = 0
            for k in range(n):
                a_ik = a[q, i, k]
                for j in range(p):  # vectorises: contiguous rows of b and c
                    row[j] += a_ik * b[q, k, j]
            for j in range(p):
                c[q, i, j] = row[j]


@njit(cache=True)
def multiply_across(a, b, c, first, last):
    """The same, LANES pairs at a time, vectorised across the pairs; a last
    group of fewer than LANES goes by rows."""
    batch, m, n = a.shape
    p = b.shape[2]
    # Each pair as one row of its elements (C order), so that LANES pairs
    # are a LANES x (m n) block, and the block transposed is the batch-inner
    # copy: a_t[i * n + k, lane] = a[q0 + lane, i, k].
    a_pairs, b_pairs, c_pairs = a.reshape(batch, m * n), b.reshape(batch, n * p), c.reshape(batch, m * p)
    a_t = np.empty((m * n, LANES), dtype=np.float32)
    b_t = np.empty((n * p, LANES), dtype=np.float32)
    c_t = np.empty((m * p, LANES), dtype=np.float32)
    q0 = first
    while q0 + LANES <= last:
        a_t[:] = a_pairs[q0:q0 + LANES].T
        b_t[:] = b_pairs[q0:q0 + LANES].T
        c_t[:] = 0
        for i in range(m):
            for j in range(p):
                for k in range(n):
                    for lane in range(LANES):  # the same multiply-add for 16 matrices
                        c_t[i * p + j, lane] += a_t[i * n + k, lane] * b_t[k * p + j, lane]
        c_pairs[q0:q0 + LANES] = c_t.T
        q0 += LANES
    multiply_rows(a, b, c, q0, last)


@njit(cache=True)
def multiply(a, b, c, first, last):
    """The rungs' choice: across the batch for small matrices, else by rows."""
    m, n, p = a.shape[1], a.shape[2], b.shape[2]
    if m * n <= SMALL and n * p <= SMALL and m * p <= SMALL:
        multiply_across(a, b, c, first, last)
    else:
        multiply_rows(a, b, c, first, last)


class Rung:
    def prepare(self, inputs, outputs, context):
        self.a, self.b, self.c = inputs["a"], inputs["b"], outputs["c"]

    def compute(self):
        multiply(self.a, self.b, self.c, 0, self.a.shape[0])
