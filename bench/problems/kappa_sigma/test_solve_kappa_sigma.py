#!/usr/bin/env python3
"""`ladder solve kappa_sigma` keeps what the GPU lesson's NumPy loop keeps, for every rung that can run
here: the same values (as a sorted array; at most ceil(1e-6 N) of them may differ), the same number of
iterations, and the statistics within 1e-6. The loop runs in float64, as bench/problems/kappa_sigma/README.md sums in double.
The inputs come from `ladder generate` (the sky, heavy tails, ties) and from NumPy itself."""
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

from solve_common import Tally, import_or_skip, rungs_of

(np,) = import_or_skip("numpy")

ladder = sys.argv[1]


def lesson_loop(image, kappa):
    """The lesson's loop, counting its passes; in float64."""
    data = image.astype(np.float64).ravel()
    iterations = 0
    while True:
        iterations += 1
        med, std, mean = np.median(data), np.std(data), np.mean(data)
        kept = data.compress(data > med - kappa * std)
        kept = kept.compress(kept < med + kappa * std)
        if len(kept) == len(data) or len(kept) == 0:
            return kept, dict(count=len(kept), median=med, mean=mean, std=std, iterations=iterations,
                              lower=med - kappa * std, upper=med + kappa * std)
        data = kept


rungs = rungs_of(ladder, "kappa_sigma")
tally = Tally()
with tempfile.TemporaryDirectory() as directory:
    d = Path(directory)
    images = []
    for kind, height, width, kappa in [("sky", 300, 200, 3), ("heavy", 101, 103, 3), ("levels", 64, 65, 2.5)]:
        subprocess.run([ladder, "generate", "kappa_sigma", "--out", str(d / kind), "--param", f"image={kind}",
                        "--param", f"height={height}", "--param", f"width={width}"], check=True, capture_output=True)
        images.append((kind, np.load(d / kind / "image.npy"), kappa))
    rng = np.random.default_rng(20261124)
    images.append(("numpy normal + outliers", np.concatenate([rng.normal(5, 2, 997), [1e4, -3e3, 70]]).astype(np.float32).reshape(20, 50), 3))
    for rung in rungs:
        if not tally.runs_here(rung):
            continue
        for name, image, kappa in images:
            np.save(d / "image.npy", image)
            out = d / "mask.npy"
            out.unlink(missing_ok=True)
            run = subprocess.run([ladder, "solve", "kappa_sigma", "--variant", rung["name"], "--input",
                                  f"image={d / 'image.npy'}", "--param", f"kappa={kappa}", "--output", str(out)],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                print(f"{rung['name']} {name}: FAILED: {run.stderr.strip()}")
                tally.failed += 1
                continue
            mask = np.load(out)
            stats = json.loads(Path(str(out) + ".json").read_text())
            kept, want = lesson_loop(image, kappa)
            got = np.sort(image[mask == 1].astype(np.float64))
            allowed = math.ceil(1e-6 * image.size)
            problems = []
            if mask.shape != image.shape or mask.dtype != np.uint8:
                problems.append(f"mask is {mask.dtype} {mask.shape}")
            elif abs(got.size - kept.size) > allowed or (got.size == kept.size and (got != np.sort(kept)).sum() > allowed):
                problems.append(f"kept {got.size} values, the loop {kept.size}")
            if stats["iterations"] != want["iterations"] or stats["count"] != mask.sum():
                problems.append(f"iterations {stats['iterations']} (loop {want['iterations']}), count {stats['count']}")
            for key in ("median", "mean", "std", "lower", "upper"):
                if abs(stats[key] - want[key]) > max(1e-6 * abs(want[key]), 1e-8):
                    problems.append(f"{key} {stats[key]!r}, the loop {want[key]!r}")
            if problems:
                print(f"{rung['name']} {name}: FAILED: " + "; ".join(problems))
                tally.failed += 1
            else:
                tally.passed += 1

tally.finish()
