#!/usr/bin/env python3
"""A real `ladder run` writes results that validate against
reports/results.schema.json, and the schema rejects what it should."""
import copy
import json
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import jsonschema
except ImportError:
    print("skipped: jsonschema is not installed for " + sys.executable)
    sys.exit(77)

ladder, schema_path = sys.argv[1], sys.argv[2]
schema = json.loads(Path(schema_path).read_text())
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)

with tempfile.TemporaryDirectory() as directory:
    out = Path(directory) / "r.json"
    # Two replicates: the replicate figures and the peers' merged replicates are in the schema too.
    run = subprocess.run([ladder, "run", "vector_add", "histogram", "--size", "tiny", "--min-time", "0.01",
                          "--repetitions", "3", "--replicates", "2", "--out", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    results = json.loads(out.read_text())

    # With the peers (reports/peers.py) added, it still validates.
    peers = subprocess.run([sys.executable, str(Path(__file__).parent.parent / "reports" / "peers.py"), str(out),
                            "--ladder", ladder, "--min-time", "0.01"], capture_output=True, text=True)
    assert peers.returncode == 0, peers.stderr
    results = json.loads(out.read_text())
    assert results["results"][0]["peers"], "peers.py should add peer rows"
    timed = [p for e in results["results"] for p in e["peers"] if p["status"] == "ok"]
    assert all(len(p["timings"]["compute"]["replicate_medians_s"]) == 2 for p in timed), timed

errors = sorted(validator.iter_errors(results), key=lambda e: list(e.path))
for error in errors:
    print(f"{'/'.join(map(str, error.path))}: {error.message}")
assert not errors, "the run's results do not match the schema"

rows = results["results"][0]["rungs"]
assert [row["rung"] for row in rows if row["backend"] != "python"] == [
    "naive", "serial", "openmp", "opencl", "cuda", "openmp_target", "openmp_target_quads"]
assert [row["rung"] for row in rows if row["backend"] == "python"][:2] == ["python_loops", "python_numpy"], rows
assert all(row["language"] == "python" for row in rows if row["backend"] == "python" and row["status"] == "ok")
assert all(row["status"] in ("ok", "skipped") for row in rows), rows
# The serial rung's copies cost nothing next to its compute: its transfer figure is derived, and says so;
# the opencl rung's are real copies, timed as round trips.
by_name = {row["rung"]: row for row in rows}
assert "derived" in by_name["serial"]["timings"]["transfer"], by_name["serial"]["timings"]["transfer"]
assert "derived" not in by_name["opencl"]["timings"]["transfer"]
assert results["context"]["timing_policy"]["derived_transfers"] is True

# The schema is not vacuous: it rejects an ok row without timings and a
# skipped row without a reason.
broken = copy.deepcopy(results)
del broken["results"][0]["rungs"][0]["timings"]
assert not validator.is_valid(broken)
broken = copy.deepcopy(results)
broken["results"][0]["rungs"][0]["status"] = "skipped"
assert not validator.is_valid(broken)
broken = copy.deepcopy(results)
broken["results"][0]["rungs"][1]["timings"]["transfer"]["derived"] = True  # a string saying how, not a flag
assert not validator.is_valid(broken)
print("1 passed, 0 failed")
