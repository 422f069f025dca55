"""kappa_sigma, python_numpy: the GPU lesson's loop, with NumPy.

Each pass: np.median and np.std of the kept values, then keep those
strictly inside median ± κ·std, until a pass removes nothing. The values
are float64, as the specification sums in double (NumPy's float32 std sums
in float32). Whole-array calls instead of a loop per pixel, but every pass
sorts its way to a median (np.median partitions a copy) and reads the
values several times. The mask is written once at the end: the kept set is
every pixel strictly between the tightest lower and upper bounds so far.
"""
import numpy as np

REQUIRES = ()


class Rung:
    def prepare(self, inputs, outputs, context):
        self.image = inputs["image"]
        self.mask, self.statistics = outputs["mask"], outputs["statistics"]
        self.kappa = float(context["params"].get("kappa", 3))

    def compute(self):
        kappa = self.kappa
        data = self.image.ravel().astype(np.float64)
        tightest_lower, tightest_upper = -np.inf, np.inf
        iterations = 0
        while True:
            iterations += 1
            median, std, mean = np.median(data), np.std(data), np.mean(data)
            lower, upper = median - kappa * std, median + kappa * std
            tightest_lower, tightest_upper = max(tightest_lower, lower), min(tightest_upper, upper)
            kept = data.compress(data > lower)
            kept = kept.compress(kept < upper)
            if len(kept) == len(data) or len(kept) == 0:
                break
            data = kept
        # np.float64 bounds, so that the float32 image is compared in double (a Python float
        # would be rounded to float32 first, and a pixel next to a bound could flip).
        self.mask[...] = (self.image > np.float64(tightest_lower)) & (self.image < np.float64(tightest_upper))
        nan = np.nan
        empty = len(kept) == 0
        self.statistics[:] = (len(kept), nan if empty else median, nan if empty else mean,
                              nan if empty else std, iterations, lower, upper)
