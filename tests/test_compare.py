#!/usr/bin/env python3
"""`ladder compare`: a run agrees with itself, a rung made 20 % slower is found,
a difference inside the spread between replicates is noise, a host figure
that moved as the machine probe did is put down to the machine (a device-timed
one never), one within the probe's own variation is annotated so, runs on hosts of
other sizes match row for row (what uses the host's threads not compared),
a rerun's new rungs are named and not compared, and runs on
other inputs, NaN times and malformed files are refused or flagged; a gzipped
results file reads as the plain one.

    test_compare.py LADDER FIXTURE [DEVVM_RESULTS]

With DEVVM_RESULTS (a committed run of the development machine kind, OpenCL on
PoCL, reports/runs/2026-11-26-devvm-b/results-workshop.json.gz), issue 62's
rerun on a faster CPU of the kind: PoCL's OpenCL rows are host work, scaled by
the machine probe; a peer renamed by a note, or skipped in one run, does not
make the runs differ; a peer that failed, or renamed beyond a note, does."""
import copy
import gzip
import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ladder, fixture = sys.argv[1], sys.argv[2]
devvm = sys.argv[3] if len(sys.argv) > 3 else None
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


def scaled(row, figure, factor):
    """Every time of one figure of one row multiplied by factor (a doctored copy)."""
    figures = row["timings"][figure]
    for key in ("median_s", "min_s", "max_s", "mean_s"):
        figures[key] *= factor
    figures["samples_s"] = [factor * s for s in figures["samples_s"]]
    if "replicate_medians_s" in figures:
        figures["replicate_medians_s"] = [factor * m for m in figures["replicate_medians_s"]]


def serial(data):
    return data["results"][0]["rungs"][1]


with tempfile.TemporaryDirectory() as directory:
    d = Path(directory)
    expect(compare(results, results, d), 0, "the runs agree", "a run agrees with itself")

    slower = copy.deepcopy(results)
    scaled(serial(slower), "compute", 1.2)
    run = compare(results, slower, d)
    expect(run, 1, "slower", "one rung 20 % slower is found")
    expect(run, 1, "1 differ: vector_add/serial compute 1.20x slower", "and named in the summary")
    expect(run, 1, "the runs differ", "and the verdict says so")
    expect(run, 1, "the runs differ: 1 host-timed figure(s); every device-timed figure reproduces",
           "and which kind of figure differs")

    # Replicates that vary by 30 % between themselves cannot tell 15 % apart.
    noisy_a, noisy_b = copy.deepcopy(results), copy.deepcopy(results)
    base = serial(noisy_a)["timings"]["compute"]["median_s"]
    serial(noisy_a)["timings"]["compute"]["replicate_medians_s"] = [base, 1.3 * base, 1.1 * base]
    serial(noisy_b)["timings"]["compute"]["replicate_medians_s"] = [1.15 * base, 1.2 * base, 1.35 * base]
    run = compare(noisy_a, noisy_b, d)
    expect(run, 0, "within noise", "a difference inside the replicates' spread is noise")
    expect(run, 0, "1 within their measured spread", "and counted as such")

    # Tight replicates: the same 15 % is real.
    tight_a, tight_b = copy.deepcopy(results), copy.deepcopy(results)
    serial(tight_a)["timings"]["compute"]["replicate_medians_s"] = [base, 1.01 * base, 0.99 * base]
    serial(tight_b)["timings"]["compute"]["replicate_medians_s"] = [1.15 * base, 1.16 * base, 1.14 * base]
    expect(compare(tight_a, tight_b, d), 1, "slower", "the same difference beyond tight replicates is real")

    # Device-timed and host-timed figures are summed up apart.
    run = compare(results, results, d)
    expect(run, 0, "device-timed: ", "device-timed figures have their own line")
    expect(run, 0, "host-timed: ", "host-timed figures have their own line")

    # A slower machine: the probe took 1.5x as long on B, so a host figure 1.4x
    # slower is the machine's doing; 2x is beyond it; device-timed figures and
    # runs without a probe are not excused.
    def probed(data, scalar_s, memory_s):
        data = copy.deepcopy(data)
        data["context"].setdefault("readings", {})["machine_probe"] = {
            "taken": "before each replicate and after the last",
            "scalar_chain_s": [scalar_s] * 3, "memory_pass_s": [memory_s] * 3}
        return data

    fast, slow = probed(results, 2e-3, 4e-3), probed(results, 3e-3, 4.4e-3)
    scaled(serial(slow), "compute", 1.4)
    run = compare(fast, slow, d)
    expect(run, 0, "1.50x A's time (scalar chain)", "the machines' probes are compared")
    expect(run, 0, "as the machine", "a host figure that moved as the machine did")
    expect(run, 0, "1 differ only as far as the machines do (machine probe): vector_add/serial compute 1.40x",
           "is counted and named apart")
    expect(run, 0, "the runs agree, 1 host figures only once", "and the verdict says so")
    expect(compare(results, slow, d), 1, "the runs differ",
           "without a probe in both runs, no figure is put down to the machine")
    scaled(serial(slow), "compute", 2.0 / 1.4)
    expect(compare(fast, slow, d), 1, "2.00x slower", "a host figure beyond the machine's difference is real")
    slow_device = probed(results, 3e-3, 4.4e-3)
    opencl = slow_device["results"][0]["rungs"][3]
    scaled(opencl, "compute", 1.4)
    expect(compare(fast, slow_device, d), 1, "vector_add/opencl compute 1.40x slower",
           "a device-timed figure is never put down to the host machine")

    # Issue 71: a device-timed window that holds the host's work (a streams rung's copies, Numba's
    # dispatch) moves with the host: judged as host figures are, by the 5 % floor and the probe,
    # under the timer "device+host", and the summary says what the window holds. The rerun's row
    # saying so is enough (a reference taken before rows said).
    held = probed(results, 3e-3, 4.4e-3)
    held_opencl = held["results"][0]["rungs"][3]
    held_opencl.update(compute_clock="device", compute_window_holds="the copies to and from the host, overlapped")
    scaled(held_opencl, "compute", 1.4)
    run = compare(fast, held, d)
    expect(run, 0, "device+host", "a window holding host work is timed as device+host")
    expect(run, 0, "vector_add/opencl compute 1.40x", "and moves as the machine did")
    expect(run, 0, "what their windows hold: vector_add/opencl: the copies to and from the host, overlapped",
           "and the summary says what its window holds")
    scaled(held_opencl, "compute", 1.04 / 1.4)
    expect(compare(results, held, d), 0, "1 of 1 figures reproduce within 5 %", "4 % is within the host floor")
    plain = copy.deepcopy(held)
    del plain["results"][0]["rungs"][3]["compute_window_holds"]
    expect(compare(results, plain, d), 1, "vector_add/opencl compute 1.04x slower (allowed 3 %)",
           "without host work in its window, 4 % is beyond the device floor")
    # A rung on ranks (cuda_nccl) is timed by rank 0's MPI_Wtime: a host figure, as the row's
    # compute_clock says, or, in a run before rows said, as its device name shows.
    for marked in ({"compute_clock": "host"}, {"device": "1 × NVIDIA H200 (NCCL)"}):
        ranked = copy.deepcopy(plain)
        ranked["results"][0]["rungs"][3].update(marked)
        if "device" in marked:
            del ranked["results"][0]["rungs"][3]["compute_clock"]
        expect(compare(results, ranked, d), 0, f"{'vector_add / workshop / opencl':52} {'compute':9} host ",
               f"a rung timed on the host's clock is a host figure ({marked})")
    # A numba.cuda rung of a run before rows said: its worker's clock timed Numba's dispatch too.
    numba = copy.deepcopy(plain)
    del numba["results"][0]["rungs"][3]["compute_clock"]
    numba["results"][0]["rungs"][3]["python"] = {"python": "3.12.3", "device": "cuda", "threads": 0,
                                                   "libraries": {"numba": "0.68.0", "numpy": "2.3.5"}}
    expect(compare(results, numba, d), 0, "Numba's dispatch of each launch", "an older numba.cuda row holds its dispatch")

    # The machine's own noise: probes with equal medians whose readings vary
    # by 40 % within each run. A host figure 1.5x slower still differs, and
    # is annotated with that noise; with steady probes it is not.
    def jittery(data):
        data = copy.deepcopy(data)
        data["context"].setdefault("readings", {})["machine_probe"] = {
            "taken": "before each replicate and after the last",
            "scalar_chain_s": [2e-3] * 3, "memory_pass_s": [4e-3, 3.4e-3, 5e-3]}
        return data

    noisy_slow = jittery(results)
    scaled(serial(noisy_slow), "compute", 1.5)
    run = compare(jittery(results), noisy_slow, d)
    expect(run, 1, "probe's readings varied by up to 40 % within A and 40 % within B", "the machines' noise is shown")
    expect(run, 1, "1.50x slower (allowed 5 %; within the machines' own noise: the probe varied by 40 % in A, 40 % in B)",
           "a difference within it differs, and says that the machine alone moved that much")
    steady_slow = probed(results, 2e-3, 4e-3)
    scaled(serial(steady_slow), "compute", 1.5)
    run = compare(fast, steady_slow, d)
    expect(run, 1, "1.50x slower (allowed 5 %)", "with steady probes")
    if "within the machines' own noise" in run.stdout:
        failures.append("steady probes give no machine noise")
        print("FAILED: steady probes give no machine noise\n" + run.stdout)

    # Issue 71: a reference on a 32-core host and its rerun on a 16-core one, each on all its host's
    # threads. The rows match; the openmp rung's and an every-core peer's host figures are not
    # comparable (named, no difference); a single-threaded row is compared as ever.
    def on_host(data, cores):
        data = copy.deepcopy(data)
        data["context"]["host"]["hardware_threads"] = cores
        for entry in data["results"]:
            entry["threads"] = cores
            entry["peers"] = [{"name": f"opencv cv2.add ({cores} threads)", "device": "cpu", "status": "ok",
                               "check": {"ok": True, "detail": "identical"},
                               "timings": {"compute": copy.deepcopy(entry["rungs"][2]["timings"]["compute"])}}]
        return data

    def openmp(data):
        return data["results"][0]["rungs"][2]

    big, small = on_host(results, 32), on_host(results, 16)
    scaled(openmp(small), "compute", 1.8)
    scaled(small["results"][0]["peers"][0], "compute", 1.8)
    run = compare(big, small, d)
    expect(run, 0, "vector_add / workshop / openmp", "rows on hosts of other sizes are matched")
    expect(run, 0, "not comparable: it uses the host's threads, 32 threads in A, 16 in B",
           "the openmp row's host figure is named not comparable, with both counts")
    expect(run, 0, "host-timed figures not comparable (3)", "and counted apart (openmp's two, the every-core peer's)")
    expect(run, 0, "the runs agree", "and they are no difference")
    if "only in" in run.stdout:
        failures.append("no row only in one run across host sizes")
        print("FAILED: no row only in one run across host sizes\n" + run.stdout)
    scaled(serial(small), "compute", 1.3)
    expect(compare(big, small, d), 1, "vector_add/serial compute 1.30x slower",
           "a single-threaded row is still compared across host sizes")
    chosen = copy.deepcopy(big)
    chosen["context"]["host"]["threads_requested"] = 32
    expect(compare(chosen, small, d), 1, "only in A", "a run that chose its thread count is matched by that count")

    # A rerun by a later ladder (`ladder reproduce`) has rungs its reference lacked: named, not compared.
    # A rung the reference had and the rerun lacks still differs.
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "reports"))
    from ladder_compare import compare as compare_runs  # noqa: E402
    newer = copy.deepcopy(results)
    added = copy.deepcopy(serial(newer))
    added.update(rung="python_numpy", backend="python")
    newer["results"][0]["rungs"].append(added)
    said = io.StringIO()
    agree = compare_runs(results, newer, out=said, names=("reference", "rerun"), new_rungs_differ=False)
    check_text = said.getvalue()
    if not agree or "python_numpy" not in check_text or "rungs new since reference (1)" not in check_text:
        failures.append("a rung new since the reference is named and not compared")
        print("FAILED: a rung new since the reference\n" + check_text)
    said = io.StringIO()
    if compare_runs(newer, results, out=said, new_rungs_differ=False) or "only in A" not in said.getvalue():
        failures.append("a rung the rerun lacks still differs")
        print("FAILED: a rung the rerun lacks\n" + said.getvalue())
    if compare_runs(results, newer, out=io.StringIO()):
        failures.append("ladder compare itself counts a rung only in B as a difference")
        print("FAILED: a rung only in B, compared plainly")

    nan = copy.deepcopy(results)
    serial(nan)["timings"]["compute"]["median_s"] = float("nan")
    expect(compare(results, nan, d), 2, "cannot be compared", "a NaN time is refused, never compared")
    zero = copy.deepcopy(results)
    serial(zero)["timings"]["compute"]["median_s"] = 0.0
    expect(compare(results, zero, d), 1, "invalid time", "a zero time never agrees")

    # Runs that evicted the GPU's L2 in different ways are compared, with a note that says so
    # (a run without l2_eviction_by wrote: it was taken before reading was possible).
    written, read = copy.deepcopy(results), copy.deepcopy(results)
    written["context"].pop("l2_eviction_by", None)
    read["context"]["l2_eviction_by"] = "reading"
    expect(compare(written, read, d), 0, "note: A evicted the GPU's L2 by writing, B by reading",
           "a difference in how the L2 was evicted is said")
    run = compare(read, read, d)
    expect(run, 0, "the runs agree", "runs evicting the same way")
    if "evicted the GPU's L2" in run.stdout:
        failures.append("no note where both runs evicted the same way")
        print(f"FAILED: no note where both evicted the same way\n{run.stdout}")

    other = copy.deepcopy(results)
    other["results"][0]["input_checksums"]["a"] = "fnv1a64:0000000000000000"
    expect(compare(results, other, d), 1, "not comparable", "runs on other inputs are not compared")

    expect(compare(results, {"x": 1}, d), 2, "not a results file", "a file that is not a results file")
    broken = copy.deepcopy(results)
    del broken["results"][0]["rungs"]
    expect(compare(results, broken, d), 2, "does not match reports/results.schema.json", "a results file without rows")
    expect(compare(results, "not even an object", d), 2, "not a results file", "a JSON string")

    # A gzipped results file (how the committed runs keep their large ones) reads as the plain one;
    # a .gz that is not gzip, or is cut short, is refused with one message.
    packed = d / "packed.json.gz"
    with gzip.open(packed, "wt") as text:
        text.write(json.dumps(results))
    plain = d / "plain.json"
    plain.write_text(json.dumps(results))
    run = subprocess.run([ladder, "compare", str(plain), str(packed)], capture_output=True, text=True)
    expect(run, 0, "the runs agree", "a gzipped copy agrees with its plain file")
    (d / "fake.json.gz").write_text(json.dumps(results))
    run = subprocess.run([ladder, "compare", str(plain), str(d / "fake.json.gz")], capture_output=True, text=True)
    expect(run, 2, "not a valid results file", "a .gz that is not gzip is refused")
    (d / "cut.json.gz").write_bytes(packed.read_bytes()[:200])
    run = subprocess.run([ladder, "compare", str(plain), str(d / "cut.json.gz")], capture_output=True, text=True)
    expect(run, 2, "not a valid results file", "a .gz cut short is refused")

    if devvm:
        # Issue 62: the development machine's run against the same on a CPU of the kind that does the same
        # fixed work in 0.58x the time. Every host figure scales as the probe does, PoCL's OpenCL rows too
        # (their device is the host's CPU), and DIALS' skipped peer has the name it has when it is timed.
        with gzip.open(devvm, "rt") as text:
            reference = json.load(text)
        faster = copy.deepcopy(reference)
        probe = faster["context"]["readings"]["machine_probe"]
        for kind in ("scalar_chain_s", "memory_pass_s"):
            probe[kind] = [0.58 * t for t in probe[kind]]
        faster["context"]["ceilings"]["host_bytes_per_s"] /= 0.58
        for entry in faster["results"]:
            for row in entry["rungs"] + entry.get("peers", []):
                if row.get("status") == "ok" and (row.get("device_kind") == "cpu" or row.get("device") == "cpu"):
                    for figure in ("compute", "transfer"):
                        if figure in row["timings"]:
                            scaled(row, figure, 0.58)
        peers = {entry["exercise"]: {peer["name"]: peer for peer in entry.get("peers", [])}
                 for entry in faster["results"]}
        peers["spot_finding"]["DIALS DispersionThreshold"]["name"] = "DIALS DispersionThreshold (float64 frames)"
        run = compare(reference, faster, d)
        expect(run, 0, "the runs agree, ", "a faster machine of the kind: the runs agree as the machine")
        expect(run, 0, "convolution/opencl compute 0.58x", "a PoCL row is host work, scaled by the machine probe")
        expect(run, 0, "spot_finding/peer: DIALS DispersionThreshold is B's DIALS DispersionThreshold (float64 frames)",
               "a peer renamed by a note is matched, and the match is said")

        timed = copy.deepcopy(faster)
        dials = next(p for e in timed["results"] for p in e.get("peers", []) if p["name"].startswith("DIALS"))
        numpy_peer = next(e for e in timed["results"] if e["exercise"] == "vector_add")["peers"][0]
        dials.pop("reason")
        dials.update(status="ok", check={"ok": True, "detail": "identical"}, timings=copy.deepcopy(numpy_peer["timings"]))
        run = compare(reference, timed, d)
        expect(run, 0, "skipped in A (DIALS is not importable", "a peer timed in one run only is not compared")
        expect(run, 0, "peers not compared (1), skipped in one run", "and is counted apart")

        failed = copy.deepcopy(faster)
        astropy = next(p for e in failed["results"] for p in e.get("peers", []) if p["name"].startswith("astropy"))
        astropy.update(status="failed", check={"ok": False, "detail": "kept 4154301 (reference 4154628)"})
        expect(compare(reference, failed, d), 1, "status ok in A, failed in B", "a peer that failed still differs")

        for old, new in (("numpy: the lesson's loop", "numpy: the lesson's loop, again"),
                         ("astropy.stats.sigma_clip (inclusive bounds)", "astropy.stats.sigma_clip (exclusive bounds)")):
            other = copy.deepcopy(faster)
            next(p for e in other["results"] for p in e.get("peers", []) if p["name"] == old)["name"] = new
            expect(compare(reference, other, d), 1, f"peer: {new} only in B", f"a peer renamed beyond a note: {new}")
        # One name against two: "opencv cv2.calcHist" could be either thread count's row, so neither is matched.
        merged = copy.deepcopy(faster)
        histogram = next(e for e in merged["results"] if e["exercise"] == "histogram")
        histogram["peers"] = [p for p in histogram["peers"] if "2 threads" not in p["name"]]
        next(p for p in histogram["peers"] if "1 thread" in p["name"])["name"] = "opencv cv2.calcHist"
        expect(compare(reference, merged, d), 1, "peer: opencv cv2.calcHist (all the host's threads) only in A",
               "a name that could be either of two peers is matched to neither")

print(f"{0 if failures else 1} passed, {1 if failures else 0} failed")
sys.exit(1 if failures else 0)
