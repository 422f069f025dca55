#!/usr/bin/env python3
"""`ladder solve vector_add` gives NumPy's a + b bit for bit, for every rung
that can run here, on arrays of awkward sizes; the others say why not."""
import subprocess
import sys
import tempfile
from pathlib import Path

from solve_common import Tally, import_or_skip, rungs_of

(np,) = import_or_skip("numpy")

ladder = sys.argv[1]
rungs = rungs_of(ladder, "vector_add")

rng = np.random.default_rng(20261123)
shapes = [(1,), (7,), (1021,), (100003,), (33, 65)]
tally = Tally()
with tempfile.TemporaryDirectory() as directory:
    d = Path(directory)
    for rung in rungs:
        if not tally.runs_here(rung):
            continue
        for shape in shapes:
            a = (rng.standard_normal(shape) * 1e3).astype(np.float32)
            b = (rng.standard_normal(shape) * 1e-2).astype(np.float32)
            np.save(d / "a.npy", a)
            np.save(d / "b.npy", b)
            out = d / "c.npy"
            out.unlink(missing_ok=True)
            run = subprocess.run([ladder, "solve", "vector_add", "--variant", rung["name"], "--input", f"a={d / 'a.npy'}",
                                  "--input", f"b={d / 'b.npy'}", "--output", str(out)], capture_output=True, text=True)
            c = np.load(out) if run.returncode == 0 else None
            if c is not None and c.dtype == np.float32 and c.shape == shape and (c.view(np.uint32) == (a + b).view(np.uint32)).all():
                tally.passed += 1
            else:
                print(f"{rung['name']} {shape}: FAILED: {run.stderr.strip()}")
                tally.failed += 1
    # A float64 input is refused with one message and no output file.
    np.save(d / "a64.npy", np.zeros(5))
    np.save(d / "b.npy", np.zeros(5, np.float32))
    run = subprocess.run([ladder, "solve", "vector_add", "--variant", "serial", "--input", f"a={d / 'a64.npy'}",
                          "--input", f"b={d / 'b.npy'}", "--output", str(d / "bad.npy")], capture_output=True, text=True)
    tally.refused(run, "float64", [d / "bad.npy"], "float64 input")

tally.finish()
