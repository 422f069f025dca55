#!/usr/bin/python3
"""Render the task sheets' pictures: for each exercise, an input made by
`ladder generate` and the output of `ladder solve` on it (the solution's
serial rung), side by side, into exercises/<exercise>/pictures/<exercise>.png.

    /usr/bin/python3 reports/render_exercise_pictures.py [--ladder PATH] [EXERCISE ...]

Needs NumPy and matplotlib. PATH defaults to build/release/bench/ladder.
"""
import argparse
import importlib.util
import subprocess
import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

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


# Each exercise's picture is drawn by exercises/<exercise>/pictures/picture.py, found here without a list.
PICTURES = {path.parent.parent.name: path for path in sorted((ROOT / "exercises").glob("*/pictures/picture.py"))}


def draw(exercise, ladder):
    spec = importlib.util.spec_from_file_location(f"{exercise}_picture", PICTURES[exercise])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    save(module.picture(ladder), exercise)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ladder", default=str(ROOT / "build/release/bench/ladder"), help="the ladder program")
    parser.add_argument("exercises", nargs="*", default=list(PICTURES), help="exercises to draw (default: all)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        ladder = Ladder(args.ladder, work)
        for exercise in args.exercises:
            draw(exercise, ladder)


if __name__ == "__main__":
    main()
