"""The task sheet's picture of primes: an input made by `ladder generate` and the solution's output on it.
reports/render_exercise_pictures.py calls picture(ladder) and writes the figure beside this file."""
import matplotlib.pyplot as plt
import numpy as np


def picture(ladder):
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
    return figure
