"""convolution, python_loops: the definition, four nested loops in pure Python.

For every output pixel, every kernel tap, with a bounds check on every
read: the naive rung's loops, on nested lists of Python floats, each
multiply-add an interpreted step of bytecode. What this row costs against
`naive` is the price of the interpreter alone. (The sum runs in Python's
float64; the check allows float32 rounding, so that costs nothing.)
"""
REQUIRES = ()


class Rung:
    def prepare(self, inputs, outputs, context):
        self.image = inputs["image"].tolist()  # lists of Python floats: no NumPy scalar per read
        self.kernel = inputs["kernel"].tolist()
        self.output = outputs["output"]

    def compute(self):
        image, kernel = self.image, self.kernel
        height, width = len(image), len(image[0])
        rows, columns = len(kernel), len(kernel[0])
        for y in range(height + rows - 1):
            out_row = [0.0] * (width + columns - 1)
            for x in range(width + columns - 1):
                total = 0.0
                for i in range(rows):
                    r = y - i  # the kernel is flipped: a convolution, not a correlation
                    if 0 <= r < height:
                        for j in range(columns):
                            c = x - j
                            if 0 <= c < width:
                                total += kernel[i][j] * image[r][c]
                out_row[x] = total
            self.output[y, :] = out_row  # a row at a time: one copy into the NumPy output, not W
