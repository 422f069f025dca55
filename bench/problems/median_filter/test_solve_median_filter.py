#!/usr/bin/env python3
"""`ladder solve median_filter` gives scipy.ndimage.median_filter(frame,
size=k, mode='reflect') exactly, frame by frame, for every rung that can run
here: float32, float64 and uint16, 2-D images and stacks, 1×1 frames, single
rows and columns, k larger than the frame; remove_outlier bright and dark
against the same formula in NumPy; bad inputs are refused with one message
and no output file."""
import subprocess
import sys
import tempfile
from pathlib import Path

from solve_common import Tally, import_or_skip, rungs_of

np, ndimage = import_or_skip("numpy", "scipy.ndimage")

ladder = sys.argv[1]
rungs = rungs_of(ladder, "median_filter")

rng = np.random.default_rng(20261123)


def image_of(shape, dtype):
    if dtype == np.uint16:  # few distinct values: ties, and the full range
        values = rng.integers(0, 8, size=shape) * 9000
        return values.astype(np.uint16)
    return (rng.standard_normal(shape) * 100).astype(dtype)


def scipy_median(image, k):
    if image.ndim == 2:
        return ndimage.median_filter(image, size=k, mode="reflect")
    return np.stack([ndimage.median_filter(frame, size=k, mode="reflect") for frame in image])


def remove_outlier(image, k, diff, direction):
    median = scipy_median(image, k)
    difference = image.astype(np.float64) - median.astype(np.float64)
    if direction == "dark":
        difference = -difference
    return np.where(difference > diff, median, image)


# (shape, k, dtype)
cases = [((1, 1), 1, np.float32), ((1, 1), 15, np.float32), ((1, 23), 5, np.uint16), ((23, 1), 7, np.float64),
         ((4, 6), 13, np.float32), ((3, 40, 37), 3, np.float32), ((2, 33, 35), 7, np.uint16),
         ((1, 29, 31), 9, np.float32), ((2, 20, 19), 15, np.uint16), ((5, 2, 3), 5, np.float64)]
tally = Tally()


def solve(rung, image_file, out, *params):
    command = [ladder, "solve", "median_filter", "--variant", rung, "--input", f"image={image_file}", "--output",
               str(out)]
    for param in params:
        command += ["--param", param]
    return subprocess.run(command, capture_output=True, text=True)


def compare(what, run, out, expected):
    got = np.load(out) if run.returncode == 0 else None
    if got is not None and got.dtype == expected.dtype and got.shape == expected.shape and np.array_equal(got, expected):
        tally.passed += 1
    else:
        print(f"{what}: FAILED: exit {run.returncode} {run.stderr.strip()}")
        tally.failed += 1


with tempfile.TemporaryDirectory() as directory:
    d = Path(directory)
    for rung in rungs:
        if not tally.runs_here(rung):
            continue
        for shape, k, dtype in cases:
            image = image_of(shape, dtype)
            np.save(d / "image.npy", image)
            out = d / "out.npy"
            out.unlink(missing_ok=True)
            name = f"{rung['name']} {np.dtype(dtype).name} {shape} k={k}"
            compare(name, solve(rung["name"], d / "image.npy", out, f"size={k}"), out, scipy_median(image, k))
        for direction in ("bright", "dark"):
            image = image_of((2, 31, 30), np.float32)
            image[:, ::7, ::5] += 400 if direction == "bright" else -400  # outliers to remove
            np.save(d / "image.npy", image)
            out = d / "out.npy"
            out.unlink(missing_ok=True)
            run = solve(rung["name"], d / "image.npy", out, "size=5", "mode=remove_outlier", "diff=150",
                        f"direction={direction}")
            compare(f"{rung['name']} remove_outlier {direction}", run, out, remove_outlier(image, 5, 150, direction))

    # Without --param size: 3. scipy's default mode is 'reflect' too.
    image = image_of((17, 19), np.float32)
    np.save(d / "image.npy", image)
    compare("default size", solve("serial", d / "image.npy", d / "out.npy"), d / "out.npy",
            ndimage.median_filter(image, size=3))

    # Refused with one message, exit status 2 and no output file.
    nan = image_of((4, 5), np.float32)
    nan[2, 3] = np.nan
    np.save(d / "nan.npy", nan)
    np.save(d / "uint8.npy", np.ones((3, 4), np.uint8))
    np.save(d / "line.npy", np.ones(7, np.float32))
    np.save(d / "good.npy", np.ones((3, 4), np.float32))
    for image_file, params, fragment in [(d / "nan.npy", [], "NaN at (frame 0, row 2, column 3)"),
                                         (d / "uint8.npy", [], "uint8"),
                                         (d / "line.npy", [], "H×W or F×H×W"),
                                         (d / "good.npy", ["size=4"], "size=4"),
                                         (d / "good.npy", ["size=0"], "size=0"),
                                         (d / "good.npy", ["mode=mean"], "mode=mean"),
                                         (d / "good.npy", ["direction=up"], "direction=up"),
                                         (d / "good.npy", ["diff=-1"], "diff=-1"),
                                         (d / "good.npy", ["frames=5"], "takes it from the input files")]:
        bad = d / "bad.npy"
        run = solve("serial", image_file, bad, *params)
        tally.refused(run, fragment, [bad], f"{image_file.name} {params}")

tally.finish()
