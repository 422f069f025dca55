"""labelling, python_numba_parallel: the openmp rung's strips, then stitch, in Numba.

As solutions/labelling/openmp.cpp. Each thread runs python_numba's first
pass on its own strip of rows, as if the row above the strip were
background, with its own range of provisional labels (strip t's start
after the most the rows above it could create), so the strips never touch
each other's labels. One thread then unites each strip's first row with
the row above it: a few rows' work. The numbering stays parallel: each
strip counts its roots, a prefix over the strips gives each its first
number, and each strip numbers its own labels and rewrites its own rows.
"""
import numba
import numpy as np
from numba import njit, prange

from python_numba import max_provisional_labels, scan_rows, unite

REQUIRES = ("numba",)


@njit(cache=True)
def join_to_row_above(image, labels, parent, y, eight):
    """Unites each foreground pixel of row y with its foreground neighbours in row y - 1."""
    width = image.shape[1]
    row, up, out, out_up = image[y], image[y - 1], labels[y], labels[y - 1]
    reach = 1 if eight else 0
    for x in range(width):
        if row[x]:
            for nx in range(max(0, x - reach), min(width - 1, x + reach) + 1):
                if up[nx]:
                    unite(parent, out[x], out_up[nx])


@njit(parallel=True, cache=True)
def label_image(image, labels, parent, number, eight, threads):
    height, width = image.shape
    first_row = np.array([height * t // threads for t in range(threads + 1)])
    first_label = first_row[:threads] * ((width + 1) // 2) + 1  # strip t's labels start where the rows above could end
    end_label = first_label.copy()
    for t in prange(threads):
        if first_row[t] < first_row[t + 1]:
            end_label[t] = scan_rows(image, first_row[t], first_row[t + 1], labels, parent, first_label[t], eight)
    for s in range(1, threads):  # one thread joins the strips
        if 0 < first_row[s] < first_row[s + 1]:
            join_to_row_above(image, labels, parent, first_row[s], eight)

    roots = np.zeros(threads, dtype=np.int64)
    for t in prange(threads):
        for label in range(first_label[t], end_label[t]):
            roots[t] += parent[label] == label
    first_number = np.zeros(threads, dtype=np.int64)  # the roots of the strips before t
    for t in range(1, threads):
        first_number[t] = first_number[t - 1] + roots[t - 1]
    for t in prange(threads):
        n = first_number[t]
        for label in range(first_label[t], end_label[t]):
            if parent[label] == label:
                n += 1
                number[label] = n
    for t in prange(threads):
        # A label whose parent lies in this strip takes the parent's number
        # (set just before: parent[l] < l); one whose root lies in an
        # earlier strip looks the root up (parent is only read now).
        for label in range(first_label[t], end_label[t]):
            p = parent[label]
            if p == label:
                continue
            if p >= first_label[t]:
                number[label] = number[p]
            else:
                root = p
                while parent[root] != root:
                    root = parent[root]
                number[label] = number[root]
    for t in prange(threads):
        for y in range(first_row[t], first_row[t + 1]):
            row = labels[y]
            for x in range(width):
                row[x] = number[row[x]]


class Rung:
    def prepare(self, inputs, outputs, context):
        self.image, self.labels = inputs["image"], outputs["labels"]
        self.eight = context["params"].get("connectivity", "4") == "8"
        height, width = self.image.shape
        self.parent = np.zeros(max_provisional_labels(height, width) + 1, dtype=np.int32)
        self.number = np.zeros_like(self.parent)  # number[l]: the final label of provisional label l (0 stays 0)
        # One strip per thread: ladder's --threads where given (0: not given), else Numba's own count.
        self.threads = int(context["threads"]) or numba.get_num_threads()

    def compute(self):
        label_image(self.image, self.labels, self.parent, self.number, self.eight, self.threads)
