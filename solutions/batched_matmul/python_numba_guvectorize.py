"""batched_matmul, python_numba_guvectorize: NumbaPro's pattern, a core function over the batch.

The slides' core function multiplies one pair, a triple loop as naive's;
@guvectorize with the layout "(m,n),(n,p)->(m,p)" makes it a generalised
ufunc, and NumPy's broadcasting applies it to every pair of the leading
batch axis. target="parallel" has Numba share the pairs among its threads.
The output is passed as the last argument, so the gufunc writes into the
harness's array instead of allocating one. The core still works on one
pair at a time: nothing runs across the batch (python_numba's lesson).
Numba's threads follow `ladder run --threads N`.
"""
import numpy as np
from numba import guvectorize

REQUIRES = ("numba",)


# Not cache=True, as the other Numba rungs are: a parallel gufunc loaded from
# Numba's cache (0.68) crashed with a segmentation fault on a 1 x 1 pair. Its
# signature is given, so it is compiled at import (about 1.3 s), not at its first call.
@guvectorize(["void(float32[:, :], float32[:, :], float32[:, :])"], "(m,n),(n,p)->(m,p)", target="parallel")
def matmul_pair(a, b, c):
    m, n, p = a.shape[0], a.shape[1], b.shape[1]
    for i in range(m):
        for j in range(p):
            total = np.float32(0)
            for k in range(n):
                total += a[i, k] * b[k, j]
            c[i, j] = total


class Rung:
    def prepare(self, inputs, outputs, context):
        self.a, self.b, self.c = inputs["a"], inputs["b"], outputs["c"]

    def compute(self):
        matmul_pair(self.a, self.b, self.c)
