"""The task sheet's picture of median_filter: an input made by `ladder generate` and the solution's output on it.
reports/render_exercise_pictures.py calls picture(ladder) and writes the figure beside this file."""
import matplotlib.pyplot as plt
import numpy as np


def picture(ladder):
    # A small scene of our own rather than `generate`'s flat noise, so that
    # the picture shows what a median keeps (edges) besides what it removes
    # (outliers): a gradient, a square and a thin bar with noise, and 2 % hot
    # and 2 % dead pixels as in the generated stacks.
    height, width = 96, 128
    rng = np.random.default_rng(9)
    scene = np.tile(100 + 40 * np.arange(width) / width, (height, 1))
    scene[24:72, 20:68] += 60
    scene[20:76, 92:95] -= 50
    image = scene + rng.normal(0, 4, size=scene.shape)
    pick = rng.uniform(size=scene.shape)
    hot = pick < 0.02
    image[hot] += 1000
    image[(pick >= 0.02) & (pick < 0.04)] -= 100
    folder = ladder.work / "median_filter"
    folder.mkdir(parents=True, exist_ok=True)
    np.save(folder / "image.npy", image.astype(np.float32))
    k3, _ = ladder.solve("median_filter", ["image"], "size=3")
    k7, _ = ladder.solve("median_filter", ["image"], "size=7")
    outliers, _ = ladder.solve("median_filter", ["image"], "size=3", "mode=remove_outlier", "diff=50",
                               "direction=bright")
    changed = outliers != image.astype(np.float32)
    replaced = f"{np.count_nonzero(changed & hot)} of {np.count_nonzero(hot)} hot pixels replaced, dead ones kept"
    if np.count_nonzero(changed & ~hot):  # a corner of the square stands out from a window of mostly background
        replaced += f";\n{np.count_nonzero(changed & ~hot)} more on the square's edge"
    figure, axes = plt.subplots(2, 2, figsize=(11, 8.4), gridspec_kw={"hspace": 0.45})
    panels = [
        (image, f"input: {height}×{width} float32, noise, 2 % hot and 2 % dead pixels"),
        (k3, "output: median, size=3"),
        (k7, "output: median, size=7\n(corners rounded, the 3-pixel-wide bar gone)"),
        (outliers, f"output: remove_outlier, size=3, bright, diff=50\n{replaced}"),
    ]
    for axis, (data, title) in zip(axes.flat, panels):
        picture = axis.imshow(data, cmap="gray", vmin=40, vmax=210, interpolation="nearest")
        axis.set_title(title, fontsize=10)
        axis.set_xlabel("column")
        axis.set_ylabel("row")
    figure.colorbar(picture, ax=axes, fraction=0.025, label="value (shown from 40 to 210)")
    return figure
