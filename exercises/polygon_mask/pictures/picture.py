"""The task sheet's picture of polygon_mask: an input made by `ladder generate` and the solution's output on it.
reports/render_exercise_pictures.py calls picture(ladder) and writes the figure beside this file."""
import matplotlib.pyplot as plt
import numpy as np


def picture(ladder):
    inputs = ladder.generate("polygon_mask")
    vertices = inputs["vertices"]
    mask, _ = ladder.solve("polygon_mask", ["vertices"], "width=1024", "height=1024")
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 5))
    closed = np.vstack([vertices, vertices[:1]])
    left.plot(closed[:, 0], closed[:, 1], "-", color="tab:blue", linewidth=1)
    left.plot(vertices[:, 0], vertices[:, 1], "o", color="tab:red", markersize=4)
    left.set_xlim(0, 1024)
    left.set_ylim(1024, 0)  # row 0 at the top, as in the mask
    left.set_aspect("equal")
    left.set_title(f"input: {len(vertices)} vertices, in order")
    right.imshow(mask, cmap="Greys", vmin=0, vmax=1, interpolation="nearest")
    right.set_title(f"output: mask {mask.shape[0]}×{mask.shape[1]} (black = inside)")
    for axis in (left, right):
        axis.set_xlabel("x (column)")
        axis.set_ylabel("y (row)")
    return figure
