"""The task sheet's picture of labelling: an input made by `ladder generate` and the solution's output on it.
reports/render_exercise_pictures.py calls picture(ladder) and writes the figure beside this file."""
import matplotlib.pyplot as plt
import numpy as np


def picture(ladder):
    inputs = ladder.generate("labelling")
    labels, _ = ladder.solve("labelling", ["image"])
    # The whole image, each shown pixel the largest of a 4×4 block, so that
    # components of a few pixels stay visible.
    pool = 4
    height, width = (labels.shape[0] // pool) * pool, (labels.shape[1] // pool) * pool

    def pooled(array):
        return array[:height, :width].reshape(height // pool, pool, width // pool, pool).max(axis=(1, 3))

    n = int(labels.max())
    colours = np.random.default_rng(7).uniform(0.3, 1.0, size=(n + 1, 3))
    colours[0] = 0  # background black
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 5.2))
    left.imshow(pooled(inputs["image"] != 0), cmap="Greys_r", vmin=0, vmax=1, interpolation="nearest",
                extent=(0, width, height, 0))
    left.set_title(f"input: segmented sky {labels.shape[0]}² (foreground white)")
    right.imshow(colours[pooled(labels)], interpolation="nearest", extent=(0, width, height, 0))
    right.set_title(f"output: {n} components, one colour each")
    for axis in (left, right):
        axis.set_xlabel("column (shown: 4×4 blocks, max)")
        axis.set_ylabel("row")
    return figure
