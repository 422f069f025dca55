"""The task sheet's picture of kappa_sigma: an input made by `ladder generate` and the solution's output on it.
reports/render_exercise_pictures.py calls picture(ladder) and writes the figure beside this file."""
import json
from pathlib import Path

import matplotlib.pyplot as plt


def picture(ladder):
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
    return figure
