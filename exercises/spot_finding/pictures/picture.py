"""The task sheet's picture of spot_finding: an input made by `ladder generate` and the solution's output on it.
reports/render_exercise_pictures.py calls picture(ladder) and writes the figure beside this file."""
import matplotlib.pyplot as plt
import numpy as np


def picture(ladder):
    inputs = ladder.generate("spot_finding")
    signal, output = ladder.solve("spot_finding", ["image", "mask"])
    spots = np.genfromtxt(f"{output}.csv", delimiter=",", names=True)
    frame = 0
    image, mask, marked = inputs["image"][frame], inputs["mask"][frame], signal[frame]
    here = spots[spots["frame"] == frame]
    frames, height, width = inputs["image"].shape
    # A crop with spots, a lone signal pixel and chip gaps, to show them pixel by pixel.
    y0, x0, side = 400, 240, 96
    figure, axes = plt.subplots(2, 2, figsize=(13, 7.6), gridspec_kw={"width_ratios": [2.1, 1]})
    shown = np.log10(1.0 + image.astype(np.float64))
    whole = (0, width, height, 0)  # pixel (x, y) covers [x, x + 1) × [y, y + 1), as the centroids count
    picture = axes[0, 0].imshow(shown, cmap="magma", vmin=0, vmax=np.log10(65536), interpolation="nearest",
                                extent=whole)
    figure.colorbar(picture, ax=axes[0, 0], fraction=0.025, label="log10(1 + counts)")
    axes[0, 0].add_patch(plt.Rectangle((x0, y0), side, side, fill=False, edgecolor="cyan", linewidth=1))
    axes[0, 0].set_title(f"input image: frame {frame} of {frames}, {height}×{width} (log scale)")
    axes[1, 0].imshow(mask, cmap="Greys_r", vmin=0, vmax=1, interpolation="nearest", extent=whole)
    axes[1, 0].plot(here["centroid_x"], here["centroid_y"], "o", markersize=4, markerfacecolor="none",
                    markeredgecolor="tab:red", markeredgewidth=0.8)
    axes[1, 0].set_title(f"input mask (white = valid, {100 * mask.mean():.1f} %) and the frame's "
                         f"{len(here)} spots (red)")
    crop = (slice(y0, y0 + side), slice(x0, x0 + side))
    extent = (x0, x0 + side, y0 + side, y0)
    axes[0, 1].imshow(shown[crop], cmap="magma", vmin=0, vmax=np.log10(65536), interpolation="nearest",
                      extent=extent)
    axes[0, 1].set_title(f"input, the cyan {side}² (log scale)")
    overlay = np.zeros((side, side, 3))
    overlay[..., :] = (0.55 * mask[crop])[..., None]  # valid pixels grey, masked black
    overlay[marked[crop] != 0] = (1.0, 0.85, 0.1)
    axes[1, 1].imshow(overlay, interpolation="nearest", extent=extent)
    inside = (here["centroid_x"] >= x0) & (here["centroid_x"] < x0 + side) & (here["centroid_y"] >= y0) & (
        here["centroid_y"] < y0 + side)
    axes[1, 1].plot(here["centroid_x"][inside], here["centroid_y"][inside], "+", color="tab:red", markersize=6)
    axes[1, 1].set_title("output: signal pixels (yellow), centroids (+)\nof the spots (3 to 1000 pixels)")
    for axis in axes.flat:
        axis.set_xlabel("column")
        axis.set_ylabel("row")
    figure.tight_layout()
    return figure
