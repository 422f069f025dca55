"""labelling, python_numba: the serial rung's two passes, compiled by Numba.

As solutions/labelling/two_pass.hpp: the first pass visits the pixels in
raster order, each foreground pixel taking a label from its scan mask
(up-left a, up b, up-right c, left d) through SAUF's decision tree, or a
new one, and recording in a union-find (path compression, the smaller root
kept) which labels meet. The second numbers the roots in label order,
which is raster order, and rewrites every pixel. The same algorithm as
`serial`: the rows compare the compilers, not the algorithms.
"""
import numpy as np
from numba import njit

REQUIRES = ("numba",)


@njit(cache=True)
def find_root(parent, label):
    """The root of label's set, every label on the way pointed straight at it."""
    root = label
    while parent[root] != root:
        root = parent[root]
    while parent[label] != root:
        next_label = parent[label]
        parent[label] = root
        label = next_label
    return root


@njit(cache=True)
def unite(parent, a, b):
    """Joins the sets of a and b under the smaller root, and returns it."""
    a, b = find_root(parent, a), find_root(parent, b)
    if a < b:
        parent[b] = a
        return a
    parent[a] = b
    return b


@njit(cache=True)
def scan_rows(image, row_begin, row_end, labels, parent, next_label, eight):
    """First pass over rows [row_begin, row_end): provisional labels (0 for
    background) and their equivalences in parent; new labels are next_label,
    next_label + 1, ...; returns the next unused one. Row row_begin is
    scanned as if the row above were background."""
    width = image.shape[1]
    row, out = image[row_begin], labels[row_begin]
    for x in range(width):
        if not row[x]:
            out[x] = 0
        elif x > 0 and row[x - 1]:
            out[x] = out[x - 1]
        else:
            parent[next_label] = next_label
            out[x] = next_label
            next_label += 1
    for y in range(row_begin + 1, row_end):
        row, up, out, out_up = image[y], image[y - 1], labels[y], labels[y - 1]
        for x in range(width):
            if not row[x]:
                out[x] = 0
                continue
            b = up[x] != 0
            d = x > 0 and row[x - 1] != 0
            if not eight:
                if d:
                    # Join b only when a does not already link b to d.
                    out[x] = unite(parent, out[x - 1], out_up[x]) if b and not up[x - 1] else out[x - 1]
                    continue
                if b:
                    out[x] = out_up[x]
                    continue
            else:
                if b:  # b touches a, c and d: x takes its label, nothing else to look at
                    out[x] = out_up[x]
                    continue
                a = x > 0 and up[x - 1] != 0
                c = x + 1 < width and up[x + 1] != 0
                if c:
                    if a:
                        out[x] = unite(parent, out_up[x + 1], out_up[x - 1])
                    elif d:
                        out[x] = unite(parent, out_up[x + 1], out[x - 1])
                    else:
                        out[x] = out_up[x + 1]
                    continue
                if a:
                    out[x] = out_up[x - 1]
                    continue
                if d:
                    out[x] = out[x - 1]
                    continue
            parent[next_label] = next_label  # no labelled neighbour: a new label
            out[x] = next_label
            next_label += 1
    return next_label


@njit(cache=True)
def label_image(image, labels, parent, eight):
    end = scan_rows(image, 0, image.shape[0], labels, parent, 1, eight)  # label 0 is the background
    # Roots in label order get 1, 2, ...; any other label takes its parent's
    # number, which is final already because parent[l] < l.
    n = 0
    parent[0] = 0
    for label in range(1, end):
        if parent[label] < label:
            parent[label] = parent[parent[label]]
        else:
            n += 1
            parent[label] = n
    flat = labels.reshape(-1)
    for i in range(flat.shape[0]):
        flat[i] = parent[flat[i]]


def max_provisional_labels(height, width):
    """A pixel gets a new label only where its left neighbour is background:
    at most ceil(W / 2) a row."""
    return height * ((width + 1) // 2)


class Rung:
    def prepare(self, inputs, outputs, context):
        self.image, self.labels = inputs["image"], outputs["labels"]
        self.eight = context["params"].get("connectivity", "4") == "8"
        height, width = self.image.shape
        self.parent = np.zeros(max_provisional_labels(height, width) + 1, dtype=np.int32)  # the union-find

    def compute(self):
        label_image(self.image, self.labels, self.parent, self.eight)
