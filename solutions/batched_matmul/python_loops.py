"""batched_matmul, python_loops: the slides' core function, pure Python.

For each pair, for each element of c, the dot product of a row of a and a
column of b: naive's triple loop, with the matrices read as nested lists
(`tolist()` in prepare, untimed) so that each step is the interpreter's
own, without NumPy's per-element boxing. Each multiply-add is a few
interpreted bytecodes and a new float object where naive spends one
instruction: this row is the price of the interpreter. The sums are in
float64 and rounded once to float32, closer to the reference than float32
sums and well within the tolerance.
"""
import numpy as np

REQUIRES = ()


def matmul(a, b):
    """c = a b for one pair of nested lists, the slides' core function."""
    m, n, p = len(a), len(b), len(b[0])
    c = [[0.0] * p for _ in range(m)]
    for i in range(m):
        for j in range(p):
            total = 0.0
            for k in range(n):
                total += a[i][k] * b[k][j]
            c[i][j] = total
    return c


class Rung:
    def prepare(self, inputs, outputs, context):
        self.a, self.b = inputs["a"].tolist(), inputs["b"].tolist()
        self.c = outputs["c"]

    def compute(self):
        products = [matmul(a, b) for a, b in zip(self.a, self.b)]
        self.c[...] = np.array(products, dtype=np.float32).reshape(self.c.shape)
