"""spot_finding, python_numpy: DIALS' dispersion test over summed-area tables from np.cumsum.

Per frame: the tables of m (valid pixels), Σv and Σv² are two cumulative
sums each, with a zero row and column in front; padded by k with their edge
rows and columns, every window clipped to the frame is then the same four
shifted slices (S[b][r] − S[t][r] − S[b][l] + S[t][l]), whatever k. DIALS'
test follows as whole-array float64 arithmetic in DIALS' order of
operations, so the mask is bit-identical. O(1) a pixel, as the serial rung,
but every step is a pass over the frame and the tables are int64.
"""
import numpy as np

REQUIRES = ()


def settings(params):
    """DIALS' parameters, with its defaults for those not given."""
    return (int(params.get("kernel_size", 3)), float(params.get("sigma_b", 6)), float(params.get("sigma_s", 3)),
            int(params.get("min_count", 2)), float(params.get("threshold", 0)))


def window_sums(values, k):
    """The sum over each pixel's (2k+1)² window clipped to the frame."""
    height, width = values.shape
    table = np.zeros((height + 1, width + 1), dtype=np.int64)  # table[j, i]: the sum above and left of (j, i)
    np.cumsum(np.cumsum(values, axis=0, dtype=np.int64), axis=1, out=table[1:, 1:])
    # Edge-padded by k: row y of `padded` is table row clip(y - k, 0, H), so that the window of pixel y
    # runs from padded row y (table row max(0, y - k)) to padded row y + 2k + 1 (table row min(H, y + k + 1)).
    padded = np.pad(table, k, mode="edge")
    w = 2 * k + 1
    return (padded[w:w + height, w:w + width] - padded[:height, w:w + width]
            - padded[w:w + height, :width] + padded[:height, :width])


class Rung:
    def prepare(self, inputs, outputs, context):
        frame_shape = inputs["image"].shape[-2:]  # an H×W image is a stack of one frame
        self.image = inputs["image"].reshape((-1,) + frame_shape)
        self.mask = inputs["mask"].reshape((-1,) + frame_shape)
        self.signal = outputs["signal"].reshape((-1,) + frame_shape)
        self.k, self.sigma_b, self.sigma_s, self.min_count, self.threshold = settings(context["params"])

    def compute(self):
        for f in range(self.image.shape[0]):
            valid = self.mask[f] != 0
            v = np.where(valid, self.image[f], 0).astype(np.int64)  # a masked pixel adds nothing
            m = window_sums(valid, self.k)
            x = window_sums(v, self.k)
            y = window_sums(v * v, self.k)
            # DIALS' test in double, its order of operations (exact integers up to here).
            dm, dx, dy, dv = m.astype(np.float64), x.astype(np.float64), y.astype(np.float64), v.astype(np.float64)
            with np.errstate(invalid="ignore"):  # sqrt(2(m - 1)) at m = 0, where no pixel is valid: NaN, never signal
                a = dm * dy - dx * dx - dx * (dm - 1)
                b = dm * dv - dx
                c = dx * self.sigma_b * np.sqrt(2 * (dm - 1))
                d = self.sigma_s * np.sqrt(dx * dm)
            self.signal[f] = valid & (m >= self.min_count) & (dv > self.threshold) & (a > c) & (b > d)
