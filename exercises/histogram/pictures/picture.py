"""The task sheet's picture of histogram: an input made by `ladder generate` and the solution's output on it.
reports/render_exercise_pictures.py calls picture(ladder) and writes the figure beside this file."""
import matplotlib.pyplot as plt
import numpy as np


def picture(ladder):
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
    return figure
