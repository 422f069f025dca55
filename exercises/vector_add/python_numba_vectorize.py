# ==== exercise only (between "# ====" lines: the exercise's own text; all other lines are the solution's)
"""vector_add, python_numba_vectorize: NumbaPro's pattern (task sheet, the
Python step): write what happens to ONE element, and let @vectorize make a
NumPy ufunc of it that runs over every element on Numba's threads.
"""
# ==== end
from numba import vectorize

REQUIRES = ("numba",)


# ==== yours
# TODO: a scalar function of two float32 values, decorated with
# @vectorize(["float32(float32, float32)"], target="parallel", cache=True).
# Why must the signature be given for target="parallel"?
def add(a, b):
    raise NotImplementedError("python_numba_vectorize: write add() in exercises/vector_add/python_numba_vectorize.py")
# ==== end


class Rung:
    def prepare(self, inputs, outputs, context):
        self.a, self.b, self.c = inputs["a"], inputs["b"], outputs["c"]

    def compute(self):
        # ==== yours
        # TODO: call your ufunc so that it writes into self.c (no new array each call).
        add(self.a, self.b)
        # ==== end
