"""median_filter, python_loops: the naive rung's definition, in pure Python.

For every pixel, gather its k×k window, reading across the borders through
reflect() (scipy's 'reflect', d c b a | a b c d), sort it, take the middle:
k² log k² per pixel, nothing shared between neighbours, every step
interpreted. Python's sort is in C, so the price is mostly the gathering.
"""
from python_numpy import settings

REQUIRES = ()


def reflect(i, n):
    """scipy.ndimage's mode='reflect', repeating with period 2n."""
    j = i % (2 * n)
    return j if j < n else 2 * n - 1 - j


class Rung:
    def prepare(self, inputs, outputs, context):
        frame_shape = inputs["image"].shape[-2:]  # an H×W image is a stack of one frame
        self.frames = [frame.tolist() for frame in inputs["image"].reshape((-1,) + frame_shape)]
        self.output = outputs["output"].reshape((-1,) + frame_shape)
        self.k, self.remove_outlier, self.diff, self.bright = settings(context["params"])

    def compute(self):
        k, r = self.k, self.k // 2
        for f, frame in enumerate(self.frames):
            height, width = len(frame), len(frame[0])
            columns = [[reflect(x + dx, width) for dx in range(-r, r + 1)] for x in range(width)]
            for y in range(height):
                rows = [frame[reflect(y + dy, height)] for dy in range(-r, r + 1)]
                out = []
                for x in range(width):
                    window = sorted([row[c] for row in rows for c in columns[x]])
                    median = window[k * k // 2]
                    if self.remove_outlier:  # Python's numbers: the difference cannot wrap
                        pixel = frame[y][x]
                        difference = pixel - median if self.bright else median - pixel
                        median = median if difference > self.diff else pixel
                    out.append(median)
                self.output[f, y, :] = out  # a row at a time: one copy into the NumPy output
