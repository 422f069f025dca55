"""The task sheet's picture of vector_add: an input made by `ladder generate` and the solution's output on it.
reports/render_exercise_pictures.py calls picture(ladder) and writes the figure beside this file."""
import matplotlib.pyplot as plt
import numpy as np


def picture(ladder):
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
    return figure
