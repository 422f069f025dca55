"""histogram, python_loops: the naive rung's loop, pure Python.

`counts[v] += 1` for every value, over a Python list (the values are read
as a list with `tolist()` in prepare, untimed, so each step is the
interpreter's own, without NumPy's per-element boxing). One counter per
bin, as naive: a sub-histogram trick buys nothing here, where each
increment is tens of bytecodes and the store-to-load wait it hides is a
few cycles. This row is the price of the interpreter.
"""
REQUIRES = ()


class Rung:
    def prepare(self, inputs, outputs, context):
        self.values, self.counts = inputs["values"].tolist(), outputs["counts"]

    def compute(self):
        counts = [0] * 256
        for v in self.values:
            counts[v] += 1
        self.counts[:] = counts
