#!/usr/bin/env python3
"""Replicates, `ladder compare` and `ladder reproduce` on real runs of this machine:
a run with --replicates records every replicate's median and their spread; a
copy of it with one figure made 20 % slower is told apart; and a rerun of the
same command on the same machine (`ladder reproduce`) agrees with it, or, where
three reruns do not, the runs themselves show the machine unsteady (every
figure that differs varied by a quarter or more between its replicates in
one of the two runs): then the timing is not judged, while the rerun's
inputs, rows and statuses still must match. Only a machine can make two runs
agree; the test asserts what the suite controls."""
import copy
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "reports"))
from ladder_compare import central, judge, machine_noise, machine_ratios, rows  # noqa: E402
from ladder_reproduce import eviction_arguments  # noqa: E402

ladder = sys.argv[1]

# A figure whose replicates varied this much within one run was timed on a machine too
# unsteady for two runs of it to be expected to agree.
UNSTEADY_SPREAD = 0.25
failures = []


def check(condition, what, detail=""):
    if not condition:
        failures.append(what)
        print(f"FAILED: {what}\n{detail}")


# A rerun evicts the GPU's L2 as the reference did: runs recorded before the harness could
# evict by reading wrote a buffer, and are rerun writing.
check(eviction_arguments({"l2_eviction": True}) == ["--evict-by-writing"], "an old run is rerun evicting by writing")
check(eviction_arguments({"l2_eviction": True, "l2_eviction_by": "writing"}) == ["--evict-by-writing"],
      "a run that wrote is rerun writing")
check(eviction_arguments({"l2_eviction": True, "l2_eviction_by": "reading"}) == [], "a run that read is rerun reading")
check(eviction_arguments({"l2_eviction": False, "l2_eviction_by": "nothing"}) == [], "a warm run stays warm (--warm)")

with tempfile.TemporaryDirectory() as directory:
    d = Path(directory)
    reference = d / "reference.json"
    # Single-threaded host rungs only, at the tiny size, with enough samples for stable medians
    # (an OpenMP rung on a 2-core CI machine shares its cores with whatever else runs: in one CI
    # run its median moved 1.48x between two reruns, beyond its replicates' spread); the given
    # bandwidth skips the ceiling's measurement (seconds on two cores).
    command = [ladder, "run", "vector_add", "histogram", "--size", "tiny", "--variants", "naive,serial",
               "--replicates", "3", "--min-time", "0.05", "--repetitions", "30", "--host-bandwidth", "10",
               "--out", str(reference)]
    # Up to three tries: this VM's own speed can swing so much for a minute that even the
    # steadiest of the eight figures varies by 38 % between its replicates (one CI run, this
    # test alone on the machine), and no change of 50 % can then be told apart from noise.
    for attempt in range(1, 4):
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            break
        steadiest = min((t.get("replicate_spread", 0) for entry in json.loads(reference.read_text())["results"]
                         for row in entry["rungs"] if row["status"] == "ok"
                         for t in (row["timings"]["compute"], row["timings"]["transfer"])), default=0)
        if 0.05 + 2 * steadiest < 0.49:
            break
        print(f"note: try {attempt}: even the steadiest figure varies by {steadiest:.1%} between replicates")
    check(run.returncode == 0, "the run with replicates succeeds", run.stdout + run.stderr)
    check("== replicate 3 of 3" in run.stdout, "the replicates are announced as they run", run.stdout)
    check("spread between replicates" in run.stdout, "and their spread printed", run.stdout)
    results = json.loads(reference.read_text())
    readings = results["context"]["readings"]
    check(len(readings.get("load_average_before") or []) == 3, "the load before the run is recorded", json.dumps(readings))
    check(len(readings.get("load_average_after") or []) == 3, "and after it", json.dumps(readings))

    figures = []
    for entry in results["results"]:
        check(entry.get("replicates") == 3, f"{entry['exercise']} ran 3 replicates", json.dumps(entry)[:300])
        for row in entry["rungs"]:
            check(row["status"] == "ok", f"{entry['exercise']}/{row['rung']} ok", json.dumps(row)[:300])
            if row["status"] != "ok":
                continue
            for figure in ("compute", "transfer"):
                t = row["timings"][figure]
                medians = t.get("replicate_medians_s", [])
                check(len(medians) == 3, f"{entry['exercise']}/{row['rung']} {figure} keeps 3 replicate medians")
                if len(medians) == 3:
                    expected = (max(medians) - min(medians)) / sorted(medians)[1]
                    check(abs(t["replicate_spread"] - expected) < 1e-12, "the spread is (max - min) / median")
                    figures.append((t["replicate_spread"], entry["exercise"], row["rung"], figure))

    if figures:
        # Doctor the steadiest figure: 20 % slower in every sample and replicate. Where even that
        # figure's replicates vary too much to tell 20 % apart (a loaded machine), 50 % slower;
        # test_compare.py checks the 20 % case on fixed numbers.
        # On a machine so unsteady that even 50 % is within the noise, by as much as it takes
        # (compare's allowance is 5 % plus both runs' spread).
        spread, exercise, rung, figure = min(figures)
        factor = next(f for f in (1.2, 1.5, 2.0, 3.0, 5.0, 10.0) if 0.05 + 2 * spread < f - 1.01)
        if factor != 1.2:
            print(f"note: {exercise}/{rung} {figure} varies by {spread:.1%} between replicates here:"
                  f" doctored by {factor:.1f}x")
        doctored = copy.deepcopy(results)
        for entry in doctored["results"]:
            for row in entry["rungs"]:
                if entry["exercise"] == exercise and row["rung"] == rung:
                    t = row["timings"][figure]
                    t["median_s"] *= factor
                    t["samples_s"] = [factor * s for s in t["samples_s"]]
                    t["replicate_medians_s"] = [factor * m for m in t["replicate_medians_s"]]
        doctored_path = d / "doctored.json"
        doctored_path.write_text(json.dumps(doctored))
        run = subprocess.run([ladder, "compare", str(reference), str(doctored_path)], capture_output=True, text=True)
        check(run.returncode == 1 and f"{exercise}/{rung} {figure} {factor:.2f}x slower" in run.stdout,
              "compare tells the run from a copy with one figure made slower", run.stdout + run.stderr)

    # A rerun of the same command on the same machine agrees with the reference. Up to three
    # reruns: a CI virtual machine's own speed moves between minutes (its machine probe has read
    # 15-19 % within one run, and one CI rerun of a single-threaded host rung came out 13 % faster,
    # every other figure the same), which a rerun taken a little later does not repeat; a rerun
    # that differs for a reason of the suite's (another command line, inputs or rungs) differs
    # every time.
    # The reference can be the outlier too (one CI run took it while another test loaded the
    # machine, and three reruns all came out 2x faster): after a rerun that differs, the
    # reference is taken again, so that each try compares two runs taken one after the other.
    attempts = []
    for attempt in range(1, 4):
        if attempt > 1:
            subprocess.run(command, capture_output=True, text=True)
        out = d / f"rerun-{attempt}"
        run = subprocess.run([ladder, "reproduce", str(reference), "--out", str(out)], capture_output=True, text=True)
        attempts.append(run)
        if run.returncode == 0 and "the runs agree" in run.stdout:
            break
    agreed = run.returncode == 0 and "the runs agree" in run.stdout
    log = "\n".join(r.stdout[-3000:] + r.stderr[-2000:] for r in attempts)
    check(run.returncode in (0, 1), "ladder reproduce reruns the run and compares", log)
    if not agreed and run.returncode == 1 and (out / "reference.json").is_file():
        # Three tries disagreed. That is the machine's doing, not the suite's, only where the
        # runs show it: every figure that differs varied by 25 % or more between its replicates
        # in one of the two runs (one CI run: 34-50 %). A figure steady in both runs that
        # differs, or any difference of inputs, rungs or statuses, fails. (The machine probe's
        # own noise is printed, not used: on a busy machine it reads 15-35 % even while a real
        # difference stands out.)
        a, b = json.loads(reference.read_text()), json.loads((out / "reference.json").read_text())
        a_rows, b_rows = rows(a, "reference"), rows(b, "rerun")
        check(set(a_rows) == set(b_rows), "the rerun has the reference's rows", log)
        probe_noise = max(n or 0 for n in (machine_noise(a), machine_noise(b)))
        machine = machine_ratios(a, b)
        steady_differences = []
        for key in set(a_rows) & set(b_rows):
            (entry_a, row_a), (entry_b, row_b) = a_rows[key], b_rows[key]
            check(entry_a["input_checksums"] == entry_b["input_checksums"], f"{key}: the rerun has the same inputs")
            check(row_a["status"] == row_b["status"], f"{key}: the rerun has the same status")
            for figure in ("compute", "transfer"):
                fa, fb = row_a["timings"][figure], row_b["timings"][figure]
                ratio, _, verdict = judge(fa, fb, 0.05, machine)
                if verdict in ("slower", "faster") and max(central(fa)[1], central(fb)[1]) < UNSTEADY_SPREAD:
                    steady_differences.append(f"{key[0]}/{key[-1]} {figure} {ratio:.2f}x")
        unsteady = not steady_differences
        check(unsteady, "a rerun on this machine reproduces the run, or the machine was shown unsteady"
              f" (figures that differ though steady in both runs: {'; '.join(steady_differences)};"
              f" the probe varied by up to {probe_noise:.0%})", log)
        if unsteady:
            print(f"note: no rerun agreed in 3 tries; every figure that differs varied by {UNSTEADY_SPREAD:.0%} or"
                  f" more between replicates (the probe by up to {probe_noise:.0%}): not judged\n"
                  + attempts[-1].stdout[-1500:])
    elif len(attempts) > 1:
        print(f"note: the rerun agreed at try {len(attempts)}; before it:\n" + attempts[0].stdout[-1500:])
    check((out / "reference.json").is_file(), "the rerun's results are kept where --out says")

    run = subprocess.run([ladder, "reproduce", str(d / "no-such-run")], capture_output=True, text=True)
    check(run.returncode == 2 and "no such file or folder" in run.stderr, "a missing run is refused", run.stderr)

print(f"{len(failures)} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
