#!/usr/bin/env python3
"""Peers: what a participant would use instead of the suite, timed on the same inputs in the same run.

    python3 reports/peers.py RESULTS.json [--ladder PATH] [--min-time S] [--time-budget S] [--replicates N]

For every exercise run in RESULTS.json that has peers (solutions/<exercise>/peers.py), the inputs are
regenerated with `ladder generate` (same size, parameters and seed, so the
same bytes), each peer is timed and its output checked against the
reference, and the rows are added to that run as `peers` (the results file
is rewritten in place). A peer whose library is not installed is recorded
as skipped, with the reason.

Host peers are timed with a steady clock, GPU peers (CuPy) with CUDA events
on data already on the device (compute-only), with the L2 cache evicted
before each repetition as the suite does. Each peer is repeated by the
rungs' own rule and policy: the harness decides, through `ladder pace`
(peer_tools.measure()), under the run's recorded context.timing_policy
(the same minimum time, repetitions, noise target and time budget), and
the peer is timed in as many interleaved replicates as the run's rungs were.
"""
import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import tempfile
from pathlib import Path

from ladder_results import fail, load_results

try:
    import numpy as np
except ImportError:
    fail("peers", "NumPy is not installed for this Python: Debian python3-numpy, or `python3 -m venv ~/ladder-venv &&"
                  " ~/ladder-venv/bin/pip install numpy scipy` and that venv's python (docs/usage.md, On a cluster)")
from peer_tools import compare_arrays, measure, summarise  # noqa: E402

PROGRAM = "peers"


# Each exercise's peers live with its solution, solutions/<exercise>/peers.py, found here without a list.
SOLUTIONS = Path(__file__).resolve().parent.parent / "solutions"
RECIPES = {path.parent.name: path for path in sorted(SOLUTIONS.glob("*/peers.py"))}


def recipe(exercise):
    """The peers(inputs, parameters) function of the exercise's solutions/<exercise>/peers.py."""
    spec = importlib.util.spec_from_file_location(f"{exercise}_peers", RECIPES[exercise])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.peers


def run_peers(ladder, entry, policy):
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        command = [ladder, "generate", entry["exercise"], "--size", entry["size"], "--seed", str(entry["seed"]),
                   "--out", directory]
        for key, value in entry["parameters"].items():
            command += ["--param", f"{key}={value}"]
        generated = subprocess.run(command, capture_output=True, text=True)
        if generated.returncode != 0:
            fail(PROGRAM, f"`{' '.join(command)}` failed: {generated.stderr.strip()}")
        files = {p.stem: np.load(p) for p in Path(directory).glob("*.npy")}
        inputs = {k: v for k, v in files.items() if not k.startswith("expected_")}
        expected = {k[len("expected_"):]: v for k, v in files.items() if k.startswith("expected_")}
        for name, device, make, *threads in recipe(entry["exercise"])(inputs, entry["parameters"]):
            row = {"name": name, "device": device}
            if threads:
                row["threads"] = threads[0]
            if isinstance(make, str):
                row.update(status="skipped", reason=make)
                rows.append(row)
                print(f"  peer {entry['exercise']}: {name:45} skipped: {make}")
                continue
            timer, output, *custom = make()
            compare = custom[0] if custom else compare_arrays
            compute = measure(timer, policy, ladder)
            ok, detail = compare(output(), expected if custom else next(iter(expected.values())))
            row.update(status="ok" if ok else "failed", check={"ok": bool(ok), "detail": detail},
                       timings={"compute": compute})
            rows.append(row)
            print(f"  peer {entry['exercise']}: {name:45} {row['status']:7} {compute['median_s'] * 1e3:9.3f} ms")
    return rows


def merge_replicates(passes):
    """One list of peer rows from several replicates: samples pooled, each replicate's median kept."""
    merged = []
    for replicate_rows in zip(*passes):
        row = dict(replicate_rows[0])
        bad = next((r for r in replicate_rows if r["status"] != "ok"), None)
        if bad is not None or len(replicate_rows) < 2:
            merged.append(bad or row)
            continue
        medians = [r["timings"]["compute"]["median_s"] for r in replicate_rows]
        compute = summarise([s for r in replicate_rows for s in r["timings"]["compute"]["samples_s"]])
        compute["replicate_medians_s"] = medians
        middle = statistics.median(medians)
        compute["replicate_spread"] = (max(medians) - min(medians)) / middle if middle > 0 else 0.0
        row["timings"] = {"compute": compute}
        merged.append(row)
    return merged


# `ladder run`'s defaults (bench/include/ladder/harness.hpp, TimingPolicy), for runs that did not record theirs.
DEFAULT_POLICY = {"min_time_s": 0.2, "min_repetitions": 5, "max_repetitions": 1000, "noise_target": 0.01,
                  "time_budget_s": 60.0}


def run_time_budget(results, default=60.0):
    """The time budget the rungs ran under, so that the peers in the same file are held to the same: the
    context's timing policy, or in runs before it was recorded `--time-budget S` on the run's command line;
    `ladder run`'s default where neither says."""
    context = results.get("context", {})
    recorded = (context.get("timing_policy") or {}).get("time_budget_s")
    if isinstance(recorded, (int, float)) and recorded > 0:
        return float(recorded)
    words = context.get("command_line", "").split()
    for word, value in zip(words, words[1:]):
        if word == "--time-budget":
            try:
                return float(value)
            except ValueError:
                break
    return default


def run_policy(results):
    """The timing policy the run's rungs were held to, which its peers follow too."""
    recorded = (results.get("context", {}).get("timing_policy") or {})
    policy = {key: recorded.get(key, value) for key, value in DEFAULT_POLICY.items()}
    policy["time_budget_s"] = run_time_budget(results, DEFAULT_POLICY["time_budget_s"])
    if "max_batches" in recorded:
        policy["max_batches"] = recorded["max_batches"]
    return policy


def print_skipped(entries):
    """One line per reason a peer was skipped, naming the peers: what to install to have them."""
    reasons = {}
    for entry in entries:
        for row in entry["peers"]:
            if row["status"] == "skipped":
                names = reasons.setdefault(row["reason"], [])
                if row["name"] not in names:
                    names.append(row["name"])
    if reasons:
        print(f"peers skipped: {sum(len(n) for n in reasons.values())}, for {len(reasons)} "
              f"reason{'s' if len(reasons) > 1 else ''}:")
    for reason, names in reasons.items():
        print(f"  {reason}: {', '.join(names)}")


def main():
    parser = argparse.ArgumentParser(prog="peers", description=__doc__.split("\n")[0])
    parser.add_argument("results")
    parser.add_argument("--ladder", default=os.environ.get("LADDER", "ladder"), help="the ladder program")
    parser.add_argument("--min-time", type=float, default=None,
                        help="seconds of timed work per peer, at least (default: the run's, as its rungs had)")
    parser.add_argument("--time-budget", type=float, default=None,
                        help="seconds of repetitions one peer may take (default: the run's `ladder run --time-budget`,"
                             " else 60)")
    parser.add_argument("--replicates", type=int, default=0,
                        help="time every peer this many times, interleaved (default: as many as the run's rungs)")
    args = parser.parse_args()
    if args.results.endswith(".gz"):  # it writes the peers back into the file, as plain JSON
        fail(PROGRAM, f"{args.results}: a gzipped results file; peers.py adds to a plain one (gunzip it first)")
    results = load_results(PROGRAM, args.results)
    policy = run_policy(results)
    if args.time_budget is not None:
        policy["time_budget_s"] = args.time_budget
    if args.min_time is not None:
        policy["min_time_s"] = args.min_time
    if not policy["time_budget_s"] > 0:
        fail(PROGRAM, f"--time-budget {policy['time_budget_s']}: give a number of seconds above 0")
    if not RECIPES:  # a copy of reports/ without solutions/ beside it would time nothing, and say nothing
        fail(PROGRAM, f"no peers found: each exercise's peers are {SOLUTIONS}/<exercise>/peers.py, and there are "
                      "none (run peers.py from a whole checkout)")
    entries = [entry for entry in results["results"] if entry["exercise"] in RECIPES]
    replicates = args.replicates or max([entry.get("replicates", 1) for entry in entries] + [1])
    # Interleaved as `ladder run --replicates` does: every exercise once, then again.
    passes = [[] for _ in entries]
    for replicate in range(replicates):
        if replicates > 1:
            print(f"== peers, replicate {replicate + 1} of {replicates}", flush=True)
        for entry, entry_passes in zip(entries, passes):
            entry_passes.append(run_peers(args.ladder, entry, policy))
    for entry, entry_passes in zip(entries, passes):
        entry["peers"] = merge_replicates(entry_passes)
    print_skipped(entries)
    temporary = Path(args.results).with_suffix(".peers.tmp")
    temporary.write_text(json.dumps(results, indent=1) + "\n")
    temporary.replace(args.results)


if __name__ == "__main__":
    main()
