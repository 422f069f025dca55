"""convolution, python_numpy: one whole-array multiply-add per kernel tap.

The loops over the K×L taps stay in Python; each tap adds the weighted
image, shifted by (i, j), into the output: output[i:i+H, j:j+W] +=
kernel[i, j] · image. The zero border of the full output needs no padding
and no bounds check: a shifted image simply does not reach it. K·L pairs of
NumPy calls over H×W pixels instead of (H+K-1)(W+L-1)·K·L interpreted
steps, but each tap reads and writes the whole output from memory.
"""
import numpy as np

REQUIRES = ()


class Rung:
    def prepare(self, inputs, outputs, context):
        self.image, self.kernel = inputs["image"], inputs["kernel"]
        self.output = outputs["output"]
        self.weighted = np.empty_like(self.image)  # one tap's weighted image, reused (no allocation per tap)

    def compute(self):
        height, width = self.image.shape
        rows, columns = self.kernel.shape
        self.output[...] = 0
        for i in range(rows):
            for j in range(columns):
                # output[y][x] takes kernel[i][j] · image[y - i][x - j]: the image shifted down i, right j
                np.multiply(self.image, self.kernel[i, j], out=self.weighted)
                self.output[i:i + height, j:j + width] += self.weighted
