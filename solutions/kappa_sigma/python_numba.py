"""kappa_sigma, python_numba: the serial rung's selection and compaction, compiled by Numba.

As solutions/kappa_sigma/serial.cpp: the kept values live packed at the
front of one work buffer; a quickselect (Hoare's partition, median-of-three
pivot: what std::nth_element does) puts the middle one in place in O(n)
instead of sorting; the pass that drops the clipped values also sums the
survivors, shifted by the median, so the next pass's mean and std cost no
pass of their own; the mask is written once at the end, from the tightest
bounds. The same algorithm as `serial`: the rows compare the compilers.
"""
import numpy as np
from numba import njit

REQUIRES = ("numba",)


@njit(cache=True)
def select(values, n, k):
    """Reorders values[:n] so that values[k] is what a sort would put there,
    none larger before it, none smaller after it (std::nth_element)."""
    lo, hi = 0, n - 1
    while lo < hi:
        # The median of the first, middle and last as the pivot: a sorted or
        # constant range does not make the partition lopsided.
        a, b, c = values[lo], values[(lo + hi) // 2], values[hi]
        pivot = max(min(a, b), min(max(a, b), c))
        i, j = lo, hi
        while i <= j:  # Hoare's partition: both sides stop at values equal to the pivot (ties split evenly)
            while values[i] < pivot:
                i += 1
            while values[j] > pivot:
                j -= 1
            if i <= j:
                values[i], values[j] = values[j], values[i]
                i += 1
                j -= 1
        # Now values[lo..j] <= pivot <= values[i..hi], and whatever lies between equals the pivot.
        if k <= j:
            hi = j
        elif k >= i:
            lo = i
        else:
            return


@njit(cache=True)
def write_statistics(statistics, n, median, mean, std, iterations, lower, upper):
    """The statistics output: survivors, their median, mean and std (NaN where none survive), the
    iterations and the last bounds. python_numba_parallel writes its own through this too."""
    empty = n == 0
    statistics[0] = n
    statistics[1] = np.nan if empty else median
    statistics[2] = np.nan if empty else mean
    statistics[3] = np.nan if empty else std
    statistics[4] = iterations
    statistics[5] = lower
    statistics[6] = upper


@njit(cache=True)
def clip(pixels, kappa, kept, mask, statistics):
    n = pixels.shape[0]
    shift = np.float64(pixels[0])
    total, squares = 0.0, 0.0  # Σ(x - shift), Σ(x - shift)²: small sums, and exactly 0 for a constant image
    for i in range(n):
        kept[i] = pixels[i]
        d = pixels[i] - shift
        total += d
        squares += d * d
    tightest_lower, tightest_upper = -np.inf, np.inf
    iterations = 0
    while True:
        iterations += 1
        offset = total / n
        mean = shift + offset
        std = np.sqrt(max(0.0, squares / n - offset * offset))

        middle = n // 2
        select(kept, n, middle)
        median = np.float64(kept[middle])
        if n % 2 == 0:  # the mean of the two middle values; the lower one is the largest before it
            median = (np.float64(kept[:middle].max()) + median) / 2
        lower, upper = median - kappa * std, median + kappa * std
        tightest_lower, tightest_upper = max(tightest_lower, lower), min(tightest_upper, upper)

        # Compact in place, summing the survivors around the new median.
        survivors = 0
        shift, total, squares = median, 0.0, 0.0
        for i in range(n):
            x = kept[i]
            if x > lower and x < upper:  # float32 against float64 bounds: compared in double
                kept[survivors] = x
                survivors += 1
                d = x - shift
                total += d
                squares += d * d
        removed_nothing = survivors == n
        n = survivors
        if removed_nothing or n == 0:
            break
    for i in range(pixels.shape[0]):
        mask[i] = pixels[i] > tightest_lower and pixels[i] < tightest_upper
    write_statistics(statistics, n, median, mean, std, iterations, lower, upper)


class Rung:
    def prepare(self, inputs, outputs, context):
        self.pixels = inputs["image"].reshape(-1)  # views, no copies: the mask is written in place
        self.mask = outputs["mask"].reshape(-1)
        self.statistics = outputs["statistics"]
        self.kappa = float(context["params"].get("kappa", 3))
        self.kept = np.empty(self.pixels.shape[0], dtype=np.float32)  # the work buffer

    def compute(self):
        clip(self.pixels, self.kappa, self.kept, self.mask, self.statistics)
