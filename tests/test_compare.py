#!/usr/bin/env python3
"""`ladder compare`: a run agrees with itself, a real slowdown in the samples
is found, and runs on different inputs are not compared."""
import copy
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ladder, fixture = sys.argv[1], sys.argv[2]
results = json.loads(Path(fixture).read_text())
failures = []


def compare(a, b, directory):
    paths = []
    for name, data in (("a.json", a), ("b.json", b)):
        (directory / name).write_text(json.dumps(data))
        paths.append(str(directory / name))
    return subprocess.run([ladder, "compare", *paths], capture_output=True, text=True)


def expect(run, code, fragment, what):
    if run.returncode != code or fragment not in run.stdout + run.stderr:
        failures.append(what)
        print(f"FAILED: {what}: exit {run.returncode}\n{run.stdout}{run.stderr}")


with tempfile.TemporaryDirectory() as directory:
    d = Path(directory)
    expect(compare(results, results, d), 0, "the runs agree", "a run agrees with itself")

    slower = copy.deepcopy(results)
    row = slower["results"][0]["rungs"][1]  # serial
    row["timings"]["compute"]["samples_s"] = [2 * s for s in row["timings"]["compute"]["samples_s"]]
    row["timings"]["compute"]["median_s"] *= 2
    run = compare(results, slower, d)
    expect(run, 1, "slower", "twice the time in every sample is a slowdown")
    expect(run, 1, "the runs differ", "and the verdict says so")

    other = copy.deepcopy(results)
    other["results"][0]["input_checksums"]["a"] = "fnv1a64:0000000000000000"
    expect(compare(results, other, d), 1, "not comparable", "runs on other inputs are not compared")

    expect(compare(results, {"x": 1}, d), 2, "not a results file", "a file that is not a results file")

print(f"{0 if failures else 1} passed, {1 if failures else 0} failed")
sys.exit(1 if failures else 0)
