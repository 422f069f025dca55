#!/usr/bin/env python3
"""`ladder solve spot_finding` gives, for every rung that can run here, the
signal mask of a NumPy formulation of DIALS' dispersion threshold bit for bit
and the spot table of scipy.ndimage.label, on random stacks of awkward sizes
(frames smaller than the window, one frame, a fully masked frame, saturated
pixels, a 2-D image) and several parameter sets; where DIALS is importable,
the mask is also DIALS' own DispersionThreshold's. Bad inputs are refused
with one message and no output file (neither .npy nor .csv)."""
import csv
import subprocess
import sys
import tempfile
from pathlib import Path

from solve_common import Tally, import_or_skip, rungs_of

np, ndimage = import_or_skip("numpy", "scipy.ndimage")

try:
    from dials.algorithms.image.threshold import DispersionThreshold
    from scitbx.array_family import flex
except Exception as error:  # not installed (Debian: python3-dials), or broken
    DispersionThreshold = None
    print(f"DIALS: not compared ({type(error).__name__}: {error})")

ladder = sys.argv[1]
rungs = rungs_of(ladder, "spot_finding")
DEFAULTS = {"kernel_size": 3, "sigma_b": 6.0, "sigma_s": 3.0, "min_count": 2, "threshold": 0.0}


def numpy_signal(image, mask, kernel_size, sigma_b, sigma_s, min_count, threshold):
    """bench/problems/spot_finding/README.md in NumPy: exact int64 window sums from a padded summed-area table, then DIALS' doubles."""
    frames, height, width = image.shape
    valid = mask.astype(np.int64)
    values = image.astype(np.int64) * valid
    rows, columns = np.arange(height), np.arange(width)
    top, bottom = np.clip(rows - kernel_size, 0, height), np.clip(rows + kernel_size + 1, 0, height)
    left, right = np.clip(columns - kernel_size, 0, width), np.clip(columns + kernel_size + 1, 0, width)

    def box(a):
        table = np.zeros((frames, height + 1, width + 1), np.int64)
        table[:, 1:, 1:] = a.cumsum(1).cumsum(2)
        corner = lambda r, c: table[:, r][:, :, c]
        return (corner(bottom, right) - corner(top, right) - corner(bottom, left) + corner(top, left)).astype(float)

    m, x, y = box(valid), box(values), box(values * values)
    v = image.astype(float)
    with np.errstate(invalid="ignore"):
        a = m * y - x * x - x * (m - 1)
        b = m * v - x
        c = x * sigma_b * np.sqrt(2 * (m - 1))
        d = sigma_s * np.sqrt(x * m)
        return ((mask == 1) & (m >= min_count) & (x >= 0) & (v > threshold) & (a > c) & (b > d)).astype(np.uint8)


def dials_signal(image, mask, kernel_size, sigma_b, sigma_s, min_count, threshold):
    """DIALS' DispersionThreshold frame by frame, on float64 images (what DIALS' spot finder passes it:
    get_corrected_data; its int overload sums v² in 32-bit integers and overflows on bright frames)."""
    frames, height, width = image.shape
    algorithm = DispersionThreshold((height, width), (kernel_size, kernel_size), sigma_b, sigma_s, threshold,
                                    min_count)
    out = np.zeros(image.shape, np.uint8)
    for f in range(frames):
        result = flex.bool(flex.grid(height, width))
        algorithm(flex.double(image[f].astype(np.float64)), flex.bool(mask[f].astype(bool)), result)
        out[f] = result.as_numpy_array()
    return out


def scipy_spots(image, signal):
    """The spot table: 4-connected components (scipy's default structure) of 3 to 1000 pixels per frame, in
    raster order of their first pixel (scipy's numbering); centroids as exact fractions rounded once."""
    spots = []
    for f in range(image.shape[0]):
        labels, n = ndimage.label(signal[f])
        for label in range(1, n + 1):
            ys, xs = np.nonzero(labels == label)
            if not 3 <= len(ys) <= 1000:
                continue
            v = image[f][ys, xs].astype(object)  # Python integers: exact sums
            total = int(v.sum())
            spots.append((f, len(ys), total, (2 * int((v * xs).sum()) + total) / (2 * total),
                          (2 * int((v * ys).sum()) + total) / (2 * total), xs.min(), xs.max() + 1, ys.min(), ys.max() + 1))
    return spots


def read_spots(path):
    with open(path, newline="") as file:
        rows = list(csv.reader(file))
    assert rows[0] == ["frame", "pixels", "intensity", "centroid_x", "centroid_y", "bbox_x0", "bbox_x1", "bbox_y0",
                       "bbox_y1"], rows[0]
    return [(int(r[0]), int(r[1]), int(r[2]), float(r[3]), float(r[4]), int(r[5]), int(r[6]), int(r[7]), int(r[8]))
            for r in rows[1:]]


rng = np.random.default_rng(20261123)


def random_stack(shape, fully_masked_frame=None):
    """Poisson background, Gaussian spots of varied brightness, saturated pixels, a random mask."""
    frames, height, width = shape
    image = rng.poisson(rng.uniform(1, 8), size=shape).astype(np.float64)
    yy, xx = np.mgrid[0:height, 0:width]
    for f in range(frames):
        for _ in range(max(1, height * width // 400)):
            cy, cx, sigma = rng.uniform(0, height), rng.uniform(0, width), rng.uniform(0.6, 2)
            image[f] += 10 ** rng.uniform(1.5, 5) * np.exp(-((yy + 0.5 - cy) ** 2 + (xx + 0.5 - cx) ** 2) / (2 * sigma ** 2))
    image = np.minimum(np.round(image), 65535)
    image[rng.random(shape) < 0.003] = 65535
    mask = (rng.random(shape) < 0.95).astype(np.uint8)
    if fully_masked_frame is not None:
        mask[fully_masked_frame] = 0
    return image.astype(np.uint16), mask


cases = [((1, 1, 1), {}, None), ((2, 3, 4), {}, None), ((1, 9, 9), {}, None), ((3, 40, 57), {}, 1),
         ((2, 64, 65), {"kernel_size": 1}, None), ((2, 50, 70), {"kernel_size": 5, "min_count": 100}, None),
         ((2, 45, 33), {"sigma_b": 2.5, "sigma_s": 1.5, "threshold": 4}, None),
         ((33, 47), {}, None)]  # a 2-D image
tally = Tally()


def solve(rung, image_file, mask_file, out, params):
    command = [ladder, "solve", "spot_finding", "--variant", rung, "--input", f"image={image_file}", "--input",
               f"mask={mask_file}", "--output", str(out)]
    for key, value in params.items():
        command += ["--param", f"{key}={value}"]
    return subprocess.run(command, capture_output=True, text=True)


def report(ok, what, detail=""):
    if ok:
        tally.passed += 1
    else:
        tally.failed += 1
        print(f"{what}: FAILED {detail}")


with tempfile.TemporaryDirectory() as directory:
    d = Path(directory)
    inputs = []
    for shape, params, masked in cases:
        stack_shape = shape if len(shape) == 3 else (1,) + shape
        image, mask = random_stack(stack_shape, masked)
        settings = {**DEFAULTS, **params}
        expected = numpy_signal(image, mask, **settings)
        if DispersionThreshold is not None:
            report(np.array_equal(dials_signal(image, mask, **settings), expected), f"DIALS vs NumPy {shape} {params}")
        image, mask, expected = image.reshape(shape), mask.reshape(shape), expected.reshape(shape)
        index = len(inputs)
        np.save(d / f"image{index}.npy", image)
        np.save(d / f"mask{index}.npy", mask)
        spots = scipy_spots(image.reshape(stack_shape), expected.reshape(stack_shape))
        inputs.append((shape, params, index, expected, spots))
    print(f"{sum(int(e.sum()) for *_, e, _ in inputs)} signal pixels and {sum(len(s) for *_, s in inputs)} spots "
          "over the cases")

    for rung in rungs:
        if not tally.runs_here(rung):
            continue
        for shape, params, index, expected, spots in inputs:
            out = d / "signal.npy"
            out.unlink(missing_ok=True)
            run = solve(rung["name"], d / f"image{index}.npy", d / f"mask{index}.npy", out, params)
            what = f"{rung['name']} {shape} {params}"
            if run.returncode != 0:
                report(False, what, run.stderr.strip())
                continue
            got = np.load(out)
            report(got.dtype == np.uint8 and got.shape == shape and np.array_equal(got, expected), what + " mask")
            report(read_spots(str(out) + ".csv") == spots, what + " spot table")

    # Refused with one message, exit status 2, and neither output file.
    np.save(d / "float.npy", np.ones((4, 5), np.float32))
    np.save(d / "small.npy", np.ones((4, 5), np.uint16))
    np.save(d / "other.npy", np.ones((5, 4), np.uint8))
    np.save(d / "ones.npy", np.ones((4, 5), np.uint8))
    np.save(d / "twos.npy", np.full((4, 5), 2, np.uint8))
    for image_file, mask_file, params, fragment in [
            ("small.npy", "other.npy", {}, "the mask must have the image's shape"),
            ("small.npy", "twos.npy", {}, "the mask takes 0 (masked) and 1 (valid) only"),
            ("float.npy", "ones.npy", {}, "takes a uint16 image"),
            ("small.npy", "small.npy", {}, "takes a uint8 mask"),
            ("small.npy", "ones.npy", {"kernel_size": 0}, "kernel_size=0 is out of range"),
            ("small.npy", "ones.npy", {"min_count": 1}, "min_count=1 is out of range"),
            ("small.npy", "ones.npy", {"min_count": 50}, "more than the 49 pixels of the 7×7 window"),
            ("small.npy", "ones.npy", {"sigma_b": -1}, "sigma_b=-1 is out of range"),
            ("small.npy", "ones.npy", {"height": 4}, "takes it from the input files")]:
        bad = d / "bad.npy"
        run = solve("serial", d / image_file, d / mask_file, bad, params)
        tally.refused(run, fragment, [bad, Path(str(bad) + ".csv")], f"refusal {image_file} {mask_file} {params}")

tally.finish()
