#!/usr/bin/env python3
"""`ladder solve batched_matmul` agrees with NumPy's matmul (within the
exercise's bound, 1e-5 of sum_k |a_ik| |b_kj| per element) for every rung
that can run here, on awkward batches and shapes; mismatched inner
dimensions or batches, a wrong dtype or ndim are refused with one message
and exit 2, and no output file."""
import subprocess
import sys
import tempfile
from pathlib import Path

from solve_common import Tally, import_or_skip, rungs_of

(np,) = import_or_skip("numpy")

ladder = sys.argv[1]
rungs = rungs_of(ladder, "batched_matmul")

rng = np.random.default_rng(20261125)
shapes = [(1, 1, 1, 1), (1001, 2, 4, 5), (33, 16, 16, 16), (3, 7, 64, 9)]  # batch, m, n, p
tally = Tally()


def solve(d, rung, a, b):
    np.save(d / "a.npy", a)
    np.save(d / "b.npy", b)
    out = d / "c.npy"
    out.unlink(missing_ok=True)
    run = subprocess.run([ladder, "solve", "batched_matmul", "--variant", rung, "--input", f"a={d / 'a.npy'}",
                          "--input", f"b={d / 'b.npy'}", "--output", str(out)], capture_output=True, text=True)
    return run, (np.load(out) if run.returncode == 0 else None), out


with tempfile.TemporaryDirectory() as directory:
    d = Path(directory)
    for rung in rungs:
        if not tally.runs_here(rung):
            continue
        for batch, m, n, p in shapes:
            a = rng.uniform(-1, 1, (batch, m, n)).astype(np.float32)
            b = rng.uniform(-1, 1, (batch, n, p)).astype(np.float32)
            run, c, _ = solve(d, rung["name"], a, b)
            exact = np.matmul(a.astype(np.float64), b.astype(np.float64))
            scale = np.matmul(np.abs(a.astype(np.float64)), np.abs(b.astype(np.float64)))
            if c is not None and c.dtype == np.float32 and c.shape == (batch, m, p) and \
                    (np.abs(c - exact) <= 1e-5 * scale).all():
                tally.passed += 1
            else:
                print(f"{rung['name']} {(batch, m, n, p)}: FAILED: {run.stderr.strip()}")
                tally.failed += 1
    # Refused: inner dimensions, batches, dtype, ndim; one message, exit 2, no output.
    f32 = np.float32
    for a, b, fragment in [(np.zeros((2, 3, 4), f32), np.zeros((2, 5, 6), f32), "inner dimensions differ"),
                           (np.zeros((2, 3, 4), f32), np.zeros((3, 4, 6), f32), "different batches"),
                           (np.zeros((2, 3, 4)), np.zeros((2, 4, 6), f32), "takes float32"),
                           (np.zeros((3, 4), f32), np.zeros((4, 6), f32), "3-D arrays")]:
        run, _, out = solve(d, "serial", a, b)
        lines = run.stderr.strip().splitlines()
        if run.returncode == 2 and fragment in run.stderr and len(lines) == 1 and not out.exists():
            tally.passed += 1
        else:
            print(f"refusal '{fragment}': FAILED: exit {run.returncode}, {run.stderr.strip()}")
            tally.failed += 1

tally.finish()
