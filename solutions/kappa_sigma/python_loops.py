"""kappa_sigma, python_loops: the lesson's loop in plain Python lists.

Each pass sorts the kept values to read the median off the middle (the
naive rung's way), sums them for the mean and again for the std, and keeps
those strictly inside median ± κ·std with a list comprehension, until a
pass removes nothing. Python's floats are doubles, so the sums are the
specification's; every step is interpreted bytecode, and the sort,
O(n log n) a pass, dominates. The mask comes from the tightest bounds.
"""
import math

REQUIRES = ()


class Rung:
    def prepare(self, inputs, outputs, context):
        self.rows = inputs["image"].tolist()  # lists of Python floats (exact: float32 fits in a double)
        self.mask, self.statistics = outputs["mask"], outputs["statistics"]
        self.kappa = float(context["params"].get("kappa", 3))

    def compute(self):
        kappa = self.kappa
        kept = [x for row in self.rows for x in row]
        tightest_lower, tightest_upper = -math.inf, math.inf
        iterations = 0
        while True:
            iterations += 1
            n = len(kept)
            ordered = sorted(kept)
            middle = n // 2
            median = ordered[middle] if n % 2 == 1 else (ordered[middle - 1] + ordered[middle]) / 2
            mean = sum(kept) / n
            std = math.sqrt(sum((x - mean) ** 2 for x in kept) / n)
            lower, upper = median - kappa * std, median + kappa * std
            tightest_lower, tightest_upper = max(tightest_lower, lower), min(tightest_upper, upper)
            survivors = [x for x in kept if lower < x < upper]
            removed_nothing = len(survivors) == n
            kept = survivors
            if removed_nothing or not kept:
                break
        for y, row in enumerate(self.rows):  # a row at a time: one copy into the NumPy mask, not W
            self.mask[y, :] = memoryview(bytes(tightest_lower < x < tightest_upper for x in row))
        empty = not kept
        self.statistics[:] = (len(kept), math.nan if empty else median, math.nan if empty else mean,
                              math.nan if empty else std, iterations, lower, upper)
