"""polygon_mask, python_loops: the course's first version, pure Python.

For every pixel, walk round the polygon with the vertices as tuples and flip
"inside" at each edge the ray towards +x crosses: the naive rung's H·W·N
edge tests, each one an interpreted step of bytecode instead of a few
machine instructions. What this row costs against `naive` is the price of
the interpreter alone.
"""
REQUIRES = ()


def point_in_polygon(tx, ty, vertices):
    """The even-odd test of one point, with matplotlib's crossing test."""
    inside = False
    x0, y0 = vertices[-1]
    for x1, y1 in vertices:
        # the edge from the previous vertex (x0, y0) to this one (x1, y1)
        above0, above1 = y0 >= ty, y1 >= ty
        if above0 != above1:  # the edge straddles the ray's line
            left_of_edge = (y1 - ty) * (x0 - x1) >= (x1 - tx) * (y0 - y1)
            if left_of_edge == above1:
                inside = not inside
        x0, y0 = x1, y1
    return inside


class Rung:
    def prepare(self, inputs, outputs, context):
        self.vertices = [tuple(vertex) for vertex in inputs["vertices"].tolist()]
        self.mask = outputs["mask"]

    def compute(self):
        height, width = self.mask.shape
        for y in range(height):
            row = bytearray(width)  # a row at a time: one copy into the NumPy mask, not W
            for x in range(width):
                row[x] = point_in_polygon(float(x), float(y), self.vertices)
            self.mask[y, :] = memoryview(row)
