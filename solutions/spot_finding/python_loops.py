"""spot_finding, python_loops: the naive rung's brute-force window, in pure Python.

For every pixel visit each of the (2k+1)² neighbours, skip those outside
the frame or masked, sum count, Σv and Σv² (Python's integers: exact), then
DIALS' test in Python's floats, which are doubles: the mask is
bit-identical. 49 interpreted visits a pixel at k = 3.
"""
import math

from python_numpy import settings

REQUIRES = ()


def dispersion_test(m, x, y, v, sigma_b, sigma_s, min_count, threshold):
    """DIALS' DispersionThreshold for one valid pixel (spot_finding.hpp), its order of operations."""
    if m < min_count or not v > threshold:
        return False
    a = m * float(y) - float(x) * x - x * (m - 1.0)
    b = m * float(v) - x
    c = x * sigma_b * math.sqrt(2 * (m - 1.0))
    d = sigma_s * math.sqrt(float(x) * m)
    return a > c and b > d


class Rung:
    def prepare(self, inputs, outputs, context):
        frame_shape = inputs["image"].shape[-2:]  # an H×W image is a stack of one frame
        self.frames = [frame.tolist() for frame in inputs["image"].reshape((-1,) + frame_shape)]
        self.masks = [frame.tolist() for frame in inputs["mask"].reshape((-1,) + frame_shape)]
        self.signal = outputs["signal"].reshape((-1,) + frame_shape)
        self.k, self.sigma_b, self.sigma_s, self.min_count, self.threshold = settings(context["params"])

    def compute(self):
        k = self.k
        for f, (image, mask) in enumerate(zip(self.frames, self.masks)):
            height, width = len(image), len(image[0])
            for y in range(height):
                row = bytearray(width)
                for x in range(width):
                    if not mask[y][x]:
                        continue
                    m = total = squares = 0
                    for ny in range(max(0, y - k), min(height, y + k + 1)):
                        for nx in range(max(0, x - k), min(width, x + k + 1)):
                            if mask[ny][nx]:
                                v = image[ny][nx]
                                m += 1
                                total += v
                                squares += v * v
                    row[x] = dispersion_test(m, total, squares, image[y][x], self.sigma_b, self.sigma_s,
                                             self.min_count, self.threshold)
                self.signal[f, y, :] = memoryview(row)  # a row at a time: one copy into the NumPy mask
