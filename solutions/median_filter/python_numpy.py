"""median_filter, python_numpy: np.median over a stack of the k×k shifted views.

Per frame: the frame with its reflected border (scipy's 'reflect',
d c b a | a b c d, by index arithmetic, so that a window wider than the
frame keeps bouncing between its edges), then
np.lib.stride_tricks.sliding_window_view gives every pixel's k×k window as
a view, and np.median selects the middle of each (a partition of a copy of
all k² values of every pixel). No loop per pixel, but k² values copied and
partitioned for each one, and nothing shared between neighbours.
"""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

REQUIRES = ()


def settings(params):
    """size k, remove_outlier?, diff, bright?: the defaults of `ladder solve` where not given."""
    return (int(params.get("size", 3)), params.get("mode", "median") == "remove_outlier",
            float(params.get("diff", 0)), params.get("direction", "bright") == "bright")


def reflected(n, r):
    """For positions -r .. n + r - 1, the index they read under 'reflect': the
    pattern repeats with period 2n, d c b a | a b c d | d c b a."""
    i = np.arange(-r, n + r) % (2 * n)
    return np.where(i < n, i, 2 * n - 1 - i)


def choose(pixels, median, bright, diff):
    """remove_outlier: the median only where the pixel differs from it by more
    than diff in the chosen direction; the difference in float64, so that
    uint16 cannot wrap."""
    difference = pixels.astype(np.float64) - median.astype(np.float64)
    return np.where((difference if bright else -difference) > diff, median, pixels)


class Rung:
    def prepare(self, inputs, outputs, context):
        frame_shape = inputs["image"].shape[-2:]  # an H×W image is a stack of one frame
        self.image = inputs["image"].reshape((-1,) + frame_shape)
        self.output = outputs["output"].reshape((-1,) + frame_shape)
        self.k, self.remove_outlier, self.diff, self.bright = settings(context["params"])
        r = self.k // 2
        self.rows, self.columns = reflected(frame_shape[0], r), reflected(frame_shape[1], r)

    def compute(self):
        k = self.k
        for f in range(self.image.shape[0]):
            frame = self.image[f]
            padded = frame[np.ix_(self.rows, self.columns)]  # (H + k - 1) × (W + k - 1), the border reflected
            windows = sliding_window_view(padded, (k, k))  # H × W × k × k, a view: nothing copied yet
            median = np.median(windows, axis=(2, 3)).astype(frame.dtype)  # k² is odd: one middle value, exact
            self.output[f] = choose(frame, median, self.bright, self.diff) if self.remove_outlier else median
