"""labelling, python_numpy: label equivalence by whole-array hooking, the GPU rungs' idea.

The two-pass scan is a sequential walk that NumPy cannot vectorise (scipy
does it in Cython). Label equivalence can: every foreground pixel starts as
its own root; each round hangs, for every pair of neighbours in different
trees, the larger root under the smaller (np.minimum.at), then points every
pixel at its root by pointer jumping. Each component ends as one tree rooted
at its first pixel in raster order: 2 to 5 rounds on the sky, noise, spiral.
"""
import numpy as np

REQUIRES = ()


def neighbour_pairs(foreground, index, eight):
    """Every pair of foreground neighbours once, as flat pixel indices: each
    pixel with its left and its up neighbour, and for 8-connectivity the
    two diagonals above. `index` holds each pixel's flat index."""
    # (the pixels, their neighbours) as two slices of the image, one pixel apart
    directions = [(np.s_[:, 1:], np.s_[:, :-1]),  # left
                  (np.s_[1:, :], np.s_[:-1, :])]  # up
    if eight:
        directions += [(np.s_[1:, 1:], np.s_[:-1, :-1]),  # up-left
                       (np.s_[1:, :-1], np.s_[:-1, 1:])]  # up-right
    pixels, neighbours = [], []
    for here, there in directions:
        both = foreground[here] & foreground[there]
        pixels.append(index[here][both])
        neighbours.append(index[there][both])
    return np.concatenate(pixels), np.concatenate(neighbours)


class Rung:
    def prepare(self, inputs, outputs, context):
        self.image, self.labels = inputs["image"], outputs["labels"]
        self.eight = context["params"].get("connectivity", "4") == "8"
        self.parent = np.empty(self.image.size, dtype=np.intp)  # a tree over the pixels: parent[i] <= i
        self.number = np.zeros(self.image.size, dtype=np.int32)  # the final label of each root
        self.index = np.arange(self.image.size).reshape(self.image.shape)  # each pixel's flat index

    def compute(self):
        foreground = self.image != 0
        pixels = np.flatnonzero(foreground)  # raster order
        u, v = neighbour_pairs(foreground, self.index, self.eight)
        parent = self.parent
        parent[pixels] = pixels
        while len(u) > 0:
            root_u, root_v = parent[u], parent[v]  # every pixel points straight at its root
            apart = root_u != root_v
            # A pair inside one tree stays inside it (trees only merge): dropped for good.
            u, v, root_u, root_v = u[apart], v[apart], root_u[apart], root_v[apart]
            if len(u) == 0:
                break
            # Hook: each root under the smallest root it meets (the larger of each pair under the smaller).
            np.minimum.at(parent, np.maximum(root_u, root_v), np.minimum(root_u, root_v))
            # Pointer jumping: parent = parent[parent] until every pixel points at a root.
            pointers = parent[pixels]
            while True:
                grand = parent[pointers]
                if np.array_equal(grand, pointers):
                    break
                parent[pixels] = grand
                pointers = grand
        roots = pixels[parent[pixels] == pixels]  # in raster order
        self.number[roots] = np.arange(1, len(roots) + 1, dtype=np.int32)
        labels = self.labels.reshape(-1)
        labels[...] = 0
        labels[pixels] = self.number[parent[pixels]]
