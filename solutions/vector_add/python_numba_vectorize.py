"""vector_add, python_numba_vectorize: NumbaPro's pattern, a ufunc from a scalar function.

The function says what happens to one element, `a + b`; @vectorize with
an explicit signature compiles it into a NumPy ufunc, and
target="parallel" has Numba split the elements among its threads (the
openmp rung's work-sharing, with no loop written at all). Called with
`out=`, the ufunc writes into the harness's array, as np.add does in
python_numpy. Numba's threads follow `ladder run --threads N`.
"""
from numba import vectorize

REQUIRES = ("numba",)


@vectorize(["float32(float32, float32)"], target="parallel", cache=True)
def add(a, b):
    return a + b


class Rung:
    def prepare(self, inputs, outputs, context):
        self.a, self.b, self.c = inputs["a"], inputs["b"], outputs["c"]

    def compute(self):
        add(self.a, self.b, out=self.c)
