#!/usr/bin/env python3
"""`ladder solve labelling` gives scipy.ndimage.label's labels exactly (4- and
8-connectivity), for every rung that can run here, on random images of
awkward sizes and densities; bad inputs are refused with one message and no
output file."""
import subprocess
import sys
import tempfile
from pathlib import Path

from solve_common import Tally, import_or_skip, rungs_of

np, ndimage = import_or_skip("numpy", "scipy.ndimage")

ladder = sys.argv[1]
rungs = rungs_of(ladder, "labelling")

rng = np.random.default_rng(20261124)
# (shape, density): a single pixel, row and column, sizes that are no
# multiple of any tile, the percolation thresholds (0.59 for 4, 0.41 for 8).
cases = [((1, 1), 1.0), ((1, 57), 0.5), ((57, 1), 0.5), ((61, 67), 0.0), ((61, 67), 1.0),
         ((61, 67), 0.5), ((130, 257), 0.41), ((257, 130), 0.59)]
structures = {"4": None, "8": np.ones((3, 3), dtype=int)}
tally = Tally()


def solve(d, rung, image_file, out, *params):
    command = [ladder, "solve", "labelling", "--variant", rung, "--input", f"image={image_file}", "--output", str(out)]
    for param in params:
        command += ["--param", param]
    return subprocess.run(command, capture_output=True, text=True)


with tempfile.TemporaryDirectory() as directory:
    d = Path(directory)
    for rung in rungs:
        if not tally.runs_here(rung):
            continue
        for case, (shape, density) in enumerate(cases):
            # Every other image as NumPy saves a mask (bool), the rest as uint8.
            image = rng.random(shape) < density
            if case % 2:
                image = image.astype(np.uint8)
            np.save(d / "image.npy", image)
            for connectivity, structure in structures.items():
                out = d / "labels.npy"
                out.unlink(missing_ok=True)
                run = solve(d, rung["name"], d / "image.npy", out, f"connectivity={connectivity}")
                expected, n = ndimage.label(image, structure)
                got = np.load(out) if run.returncode == 0 else None
                if got is not None and got.dtype == np.int32 and got.shape == shape and (got == expected).all() \
                        and got.max(initial=0) == n:
                    tally.passed += 1
                else:
                    print(f"{rung['name']} {shape} density {density} connectivity {connectivity}: FAILED: "
                          f"{run.stderr.strip()}")
                    tally.failed += 1

    # Without --param connectivity: 4, scipy's default. Non-zero int32 values are foreground.
    image = rng.integers(-2, 3, size=(33, 47)).astype(np.int32)
    np.save(d / "int32.npy", image)
    run = solve(d, "serial", d / "int32.npy", d / "labels.npy")
    if run.returncode == 0 and (np.load(d / "labels.npy") == ndimage.label(image != 0)[0]).all():
        tally.passed += 1
    else:
        print(f"int32 image, default connectivity: FAILED: {run.stderr.strip()}")
        tally.failed += 1

    # Refused with one message, exit status 2 and no output file.
    np.save(d / "cube.npy", np.ones((2, 3, 4), np.uint8))
    np.save(d / "float.npy", np.ones((3, 4), np.float32))
    np.save(d / "small.npy", np.ones((3, 4), np.uint8))
    for image_file, params, fragment in [(d / "cube.npy", [], "2-D image"),
                                         (d / "float.npy", [], "float32"),
                                         (d / "small.npy", ["connectivity=6"], "accepted: 4, 8"),
                                         (d / "small.npy", ["width=5"], "takes it from the input files")]:
        bad = d / "bad.npy"
        run = solve(d, "serial", image_file, bad, *params)
        tally.refused(run, fragment, [bad], f"{image_file.name} {params}")

tally.finish()
