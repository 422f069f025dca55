"""polygon_mask, python_numpy: the same edge tests, vectorised over pixels.

The loop over the N edges stays in Python; each edge is tested against
every pixel at once, as whole-array NumPy operations (the rows broadcast
against the columns). N passes over an H×W array instead of H·W·N
interpreted steps. (The course vectorised the other way, over the edges of
one pixel at a time, and its NumPy version came out slower than its loops:
short arrays pay NumPy's overhead per call and win nothing.)
"""
import numpy as np

REQUIRES = ()


class Rung:
    def prepare(self, inputs, outputs, context):
        self.vertices = inputs["vertices"]
        self.mask = outputs["mask"]
        height, width = self.mask.shape
        self.x = np.arange(width, dtype=np.float64)[np.newaxis, :]  # a row of pixel x
        self.y = np.arange(height, dtype=np.float64)[:, np.newaxis]  # a column of pixel y
        self.inside = np.zeros((height, width), dtype=bool)

    def compute(self):
        inside = self.inside
        inside[...] = False
        n = len(self.vertices)
        for i in range(n):
            (x0, y0), (x1, y1) = self.vertices[i], self.vertices[(i + 1) % n]
            above0, above1 = y0 >= self.y, y1 >= self.y  # per row: does the edge straddle it?
            straddles = above0 != above1
            left_of_edge = (y1 - self.y) * (x0 - x1) >= (x1 - self.x) * (y0 - y1)
            inside ^= straddles & (left_of_edge == above1)
        self.mask[...] = inside
