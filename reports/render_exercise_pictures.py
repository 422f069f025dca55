#!/usr/bin/python3
"""Render the task sheets' pictures: for each exercise, an input made by
`ladder generate` and the output of `ladder solve` on it (the solution's
serial rung), side by side, into exercises/<exercise>/pictures/<exercise>.png.

    /usr/bin/python3 reports/render_exercise_pictures.py [--ladder PATH] [EXERCISE ...]

Needs NumPy and matplotlib. PATH defaults to build/release/bench/ladder.
"""
import argparse
import json
import subprocess
import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import ListedColormap  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


class Ladder:
    def __init__(self, program, work):
        self.program = str(program)
        self.work = Path(work)

    def generate(self, exercise, *params, size="workshop"):
        """Writes the inputs of `exercise` and returns them as a dict of arrays."""
        folder = self.work / exercise
        command = [self.program, "generate", exercise, "--out", str(folder), "--size", size]
        for param in params:
            command += ["--param", param]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        return {path.stem: np.load(path) for path in folder.glob("*.npy") if not path.stem.startswith("expected_")}

    def solve(self, exercise, inputs, *params, variant="serial"):
        """Runs one rung on the files `generate` wrote; returns the output array and its path."""
        output = self.work / f"{exercise}-output.npy"
        command = [self.program, "solve", exercise, "--variant", variant, "--output", str(output)]
        for name in inputs:
            command += ["--input", f"{name}={self.work / exercise / name}.npy"]
        for param in params:
            command += ["--param", param]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        return np.load(output), output


def save(figure, exercise):
    folder = ROOT / "exercises" / exercise / "pictures"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{exercise}.png"
    figure.savefig(path, dpi=80, bbox_inches="tight")
    plt.close(figure)
    # An adaptive palette of 128 colours keeps noisy images small (the task
    # sheets' pictures are committed): Pillow comes with matplotlib.
    from PIL import Image

    with Image.open(path) as rendered:
        quantised = rendered.convert("RGB").quantize(colors=128)
    quantised.save(path, optimize=True)
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KiB")


def polygon_mask(ladder):
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
    save(figure, "polygon_mask")


def vector_add(ladder):
    inputs = ladder.generate("vector_add", "n=4096")
    c, _ = ladder.solve("vector_add", ["a", "b"])
    shown = slice(0, 48)
    figure, axis = plt.subplots(figsize=(10, 4))
    index = np.arange(shown.stop)
    axis.plot(index, inputs["a"][shown], "o-", label="input a", markersize=3)
    axis.plot(index, inputs["b"][shown], "s-", label="input b", markersize=3)
    axis.plot(index, c[shown], "^-", label="output c = a + b", markersize=3, linewidth=2)
    axis.set_xlabel("index i (the first 48 of n)")
    axis.set_ylabel("value")
    axis.legend()
    axis.set_title("vector_add: c[i] = a[i] + b[i]")
    save(figure, "vector_add")


def primes(ladder):
    columns, rows = 30, 40
    flags, _ = ladder.solve("primes", [], f"n={columns * rows}")
    many, _ = ladder.solve("primes", [], "n=100000")
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 5), gridspec_kw={"width_ratios": [1, 1.3]})
    left.imshow(flags.reshape(rows, columns), cmap="Greys", vmin=0, vmax=1, interpolation="nearest")
    left.set_xticks(range(0, columns, 5))
    left.set_yticks(range(0, rows, 5))
    left.set_yticklabels([str(r * columns) for r in range(0, rows, 5)])
    left.set_xlabel("k mod 30")
    left.set_ylabel("first k of the row")
    left.set_title(f"output flags, k < {columns * rows} (black = prime)")
    counts = np.cumsum(many)
    k = np.arange(1, len(many) + 1)
    right.plot(k, counts, label="π(n): primes below n (from the flags)")
    right.plot(k[1:], k[1:] / np.log(k[1:]), "--", label="n / ln n")
    right.set_xlabel("n")
    right.set_ylabel("count")
    right.legend()
    right.set_title(f"π(100 000) = {counts[-1]}")
    save(figure, "primes")


def histogram(ladder):
    figure, axes = plt.subplots(2, 2, figsize=(11, 7), gridspec_kw={"width_ratios": [1, 2]})
    for row, distribution in enumerate(["uniform", "skewed"]):
        inputs = ladder.generate("histogram", "n=65536", f"distribution={distribution}")
        counts, _ = ladder.solve("histogram", ["values"])
        image = axes[row, 0].imshow(inputs["values"][:4096].reshape(64, 64), cmap="viridis", vmin=0, vmax=255,
                                    interpolation="nearest")
        figure.colorbar(image, ax=axes[row, 0], label="value")
        axes[row, 0].set_title(f"input ({distribution}): first 4096 values")
        axes[row, 0].set_axis_off()
        axes[row, 1].bar(np.arange(256), counts, width=1.0, color="tab:blue")
        if distribution == "skewed":  # one bin holds 90 %: the others show only on a log scale
            axes[row, 1].set_yscale("log")
        axes[row, 1].set_xlim(-1, 256)
        axes[row, 1].set_xlabel("bin (value)")
        axes[row, 1].set_ylabel("count" + (" (log scale)" if distribution == "skewed" else ""))
        axes[row, 1].set_title(f"output: counts of n = {int(counts.sum())} values")
    figure.tight_layout()
    save(figure, "histogram")


def convolution(ladder):
    inputs = ladder.generate("convolution")
    output, _ = ladder.solve("convolution", ["image", "kernel"])
    crop = 96
    figure, axes = plt.subplots(1, 3, figsize=(13, 4.5), gridspec_kw={"width_ratios": [1, 0.8, 1]})
    panels = [
        (inputs["image"][:crop, :crop], f"input image: top-left {crop}² of {inputs['image'].shape[0]}²"),
        (inputs["kernel"], f"input kernel: {inputs['kernel'].shape[0]}×{inputs['kernel'].shape[1]}"),
        (output[:crop, :crop], f"output: top-left {crop}² of {output.shape[0]}²"),
    ]
    for axis, (data, title) in zip(axes, panels):
        image = axis.imshow(data, cmap="magma", interpolation="nearest")
        figure.colorbar(image, ax=axis, fraction=0.046)
        axis.set_title(title)
        axis.set_xlabel("column")
        axis.set_ylabel("row")
    figure.tight_layout()
    save(figure, "convolution")


def kappa_sigma(ladder):
    inputs = ladder.generate("kappa_sigma")
    mask, output = ladder.solve("kappa_sigma", ["image"])
    stats = json.loads(Path(f"{output}.json").read_text())
    sky = inputs["image"]
    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 5.2))
    image = left.imshow(sky, cmap="inferno", vmin=-3 * 0.0133, vmax=10 * 0.0133, interpolation="nearest")
    figure.colorbar(image, ax=left, label="Jy/beam (clipped at 10 σ)")
    left.set_title(f"input: sky {sky.shape[0]}×{sky.shape[1]}")
    right.imshow(mask, cmap="Greys_r", vmin=0, vmax=1, interpolation="nearest")
    std = stats.get("std", float("nan"))
    right.set_title(f"output: kept background (white), {stats.get('iterations', '?')} iterations,\n"
                    f"{100 * mask.mean():.2f} % kept, std {std:.4f}")
    for axis in (left, right):
        axis.set_xlabel("column")
        axis.set_ylabel("row")
    save(figure, "kappa_sigma")


def labelling(ladder):
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
    save(figure, "labelling")


def spot_finding(ladder):
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
    save(figure, "spot_finding")


def median_filter(ladder):
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
    save(figure, "median_filter")


PICTURES = {
    f.__name__: f
    for f in [
        polygon_mask, vector_add, primes, histogram, convolution, kappa_sigma, labelling, spot_finding,
        median_filter
    ]
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ladder", default=str(ROOT / "build/release/bench/ladder"), help="the ladder program")
    parser.add_argument("exercises", nargs="*", default=list(PICTURES), help="exercises to draw (default: all)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        ladder = Ladder(args.ladder, work)
        for exercise in args.exercises:
            PICTURES[exercise](ladder)


if __name__ == "__main__":
    main()
