"""labelling, python_loops: the naive rung's flood fill, in pure Python.

Scan the pixels in raster order; at each foreground pixel not yet
labelled, start a new component and paint everything reachable from it,
the pixels still to visit on a Python list used as a stack (a recursive
fill would need a frame per pixel: Python's limit is 1000). Components are
met in raster order of their first pixel, so they are numbered as scipy
numbers them. Every neighbour test is interpreted bytecode.
"""
REQUIRES = ()


class Rung:
    def prepare(self, inputs, outputs, context):
        self.image = inputs["image"].reshape(-1).tolist()  # a list of Python ints
        self.height, self.width = inputs["image"].shape
        self.labels = outputs["labels"]
        eight = context["params"].get("connectivity", "4") == "8"
        self.steps = [(-1, 0), (0, -1), (0, 1), (1, 0)] + ([(-1, -1), (-1, 1), (1, -1), (1, 1)] if eight else [])

    def compute(self):
        image, height, width, steps = self.image, self.height, self.width, self.steps
        labels = [0] * (height * width)
        n = 0
        for start in range(height * width):
            if image[start] == 0 or labels[start] != 0:
                continue
            n += 1
            labels[start] = n
            stack = [start]
            while stack:
                i = stack.pop()
                y, x = divmod(i, width)
                for dy, dx in steps:
                    ny, nx = y + dy, x + dx
                    if 0 <= ny < height and 0 <= nx < width:
                        j = ny * width + nx
                        if image[j] != 0 and labels[j] == 0:  # labelled when pushed: no pixel pushed twice
                            labels[j] = n
                            stack.append(j)
        self.labels.reshape(-1)[:] = labels  # one copy into the NumPy output
