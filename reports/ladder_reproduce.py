#!/usr/bin/env python3
"""ladder reproduce: rerun a committed reference run on this machine and compare.

    ladder reproduce RUN [--out DIR] [--device-only] [--device-floor F] [--host-floor F]

RUN is a results file written by `ladder run --out`, or a folder of them
(a reference run's folder under reports/runs/: every results file in it is
reproduced). For each, the command line recorded in the file is run again
with this `ladder` (same exercises, sizes, parameters, seeds, variants,
threads and replicates, and the same way of evicting the GPU's L2: a run
recorded before reading was the default is rerun with --evict-by-writing;
only --out changes, to DIR; a run on N MPI ranks, whose recorded command
line lacks the --ranks N that mpirun was started with, gets it back), the peers are timed
again where the reference has peers (NumPy, SciPy, OpenCV, CuPy, ...: each
where installed here), and the rerun is compared with the reference by
`ladder compare`'s rule (rows matched whatever the two hosts' thread
counts, where the reference left them to the host; rungs added to the
suite since the reference are named and not compared). Where this machine differs from the reference's
(CPU model, core count, GPU, driver, compiler), that is said first, and the
runs are compared anyway.

With --device-only, only the rungs whose compute figure the device's own
events time (CUDA, OpenCL on a GPU, Python on a GPU: what a reviewer of the
kernels judges) are rerun, one `ladder run EXERCISE --variants ...` an
exercise, and only they are compared; the CPU rungs and the peers, most of a
large run's time, are left out, and the output says so. A reference with no
such rung is refused (exit status 2).

Exit status: 0 every file reproduces, 1 some row differs or a rung failed,
2 bad usage.
"""
import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path

from ladder_compare import compare, device_timed, l2_eviction
from ladder_results import fail as fail_with, load_results, plain_name, read_results_text

PROGRAM = "ladder reproduce"


def fail(message):
    fail_with(PROGRAM, message)


def results_files(run):
    path = Path(run)
    if path.is_file():
        return [path]
    if not path.is_dir():
        fail(f"{run}: no such file or folder")
    files = []
    for candidate in sorted([*path.glob("*.json"), *path.glob("*.json.gz")]):
        try:
            if json.loads(read_results_text(candidate)).get("schema_version") == 1:
                files.append(candidate)
        except (ValueError, UnicodeDecodeError, AttributeError, EOFError, OSError):
            continue
    if not files:
        fail(f"{run}: holds no results file (JSON written by `ladder run --out`)")
    return files


def without(words, option, also=()):
    """The words without `option VALUE`, `option=VALUE` and any word in `also`."""
    kept, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word == option:
            skip = True
        elif not word.startswith(option + "=") and word not in also:
            kept.append(word)
    return kept


def rerun_arguments(command_line):
    """The `ladder run` arguments of a recorded command line, without --out."""
    words = shlex.split(command_line)
    if "run" not in words:
        fail(f"the recorded command line is not a `ladder run`: {command_line}")
    return without(words[words.index("run") + 1:], "--out")


def ranks_arguments(results, arguments):
    """--ranks N where the reference ran on N MPI ranks and its command line does not say so: `--ranks N`
    relaunches the command under mpirun without it (a sweep over ranks keeps its --sweep ranks=...)."""
    if any(word.startswith(("--ranks", "ranks=", "--sweep=ranks=")) for word in arguments):
        return []
    ranks = {entry.get("ranks", 1) for entry in results["results"]}
    return ["--ranks", str(min(ranks))] if len(ranks) == 1 and min(ranks) > 1 else []


def eviction_arguments(context):
    """How the reference evicted the GPU's L2, as this ladder's options.

    A run that wrote a buffer to evict it (every run before `ladder run`
    could read it instead) charged a kernel for writing the buffer's dirty
    lines back, so the rerun must write too to be comparable. A warm run
    has --warm in its recorded command line already.
    """
    return ["--evict-by-writing"] if l2_eviction(context) == "writing" else []


def device_rungs(results):
    """{exercise: [rung, ...]} of the rungs whose compute figure a device timed and that ran (status ok),
    in the reference's order; exercises without one are left out."""
    chosen = {}
    for entry in results["results"]:
        names = [row["rung"] for row in entry["rungs"] if row.get("status") == "ok" and device_timed(row, "compute")]
        if names:
            chosen.setdefault(entry["exercise"], [])
            chosen[entry["exercise"]] += [name for name in names if name not in chosen[entry["exercise"]]]
    return chosen


def only_rungs(results, chosen):
    """A copy of a results document holding only the chosen rungs ({exercise: [rung, ...]}) and no peers."""
    kept = dict(results, results=[])
    for entry in results["results"]:
        names = chosen.get(entry["exercise"], [])
        rungs = [row for row in entry["rungs"] if row["rung"] in names]
        if rungs:
            kept["results"].append({key: value for key, value in entry.items() if key != "peers"} | {"rungs": rungs})
    return kept


def one_exercise_arguments(arguments, exercises, exercise, rungs):
    """The recorded `ladder run` arguments for one exercise and the given rungs: the recorded exercise
    names and --variants are replaced by EXERCISE --variants A,B,..."""
    return [exercise, *without(arguments, "--variants", also=exercises), "--variants", ",".join(rungs)]


def rerun_device_rungs(ladder, reference, arguments, rerun_path):
    """Reruns the reference's device-timed rungs, an exercise at a time, and writes their results as one
    file at rerun_path (the first rerun's context, every rerun's entries). Returns the rungs rerun and
    whether every rerun passed (exit status 0)."""
    chosen = device_rungs(reference)
    if not chosen:
        fail("--device-only: the reference has no rung timed by a device's events (no CUDA, no OpenCL or"
             " Python rung on a GPU) to rerun")
    exercises = {entry["exercise"] for entry in reference["results"]}
    merged, all_passed = None, True
    for exercise, rungs in chosen.items():
        part = rerun_path.with_name(f"{rerun_path.stem}.{exercise}.json")
        command = [ladder, "run", *one_exercise_arguments(arguments, exercises, exercise, rungs), "--out", str(part)]
        print(f"== {exercise}: {shlex.join(command)}", flush=True)
        status = subprocess.run(command).returncode
        if status > 1 or not part.is_file():
            fail(f"the rerun of {exercise}'s device rungs ended with exit status {status}")
        all_passed &= status == 0
        results = load_results(PROGRAM, part)
        if merged is None:
            merged = results
        else:
            merged["results"] += results["results"]
        part.unlink()
    rerun_path.write_text(json.dumps(merged, indent=1))
    return chosen, all_passed


def machine(context):
    """What a reviewer needs to know is the same before comparing times."""
    host = context.get("host", {})
    cuda = [f"{d.get('name')} (driver {d.get('driver_version')})" for d in context.get("cuda", {}).get("devices", [])]
    opencl = [d.get("name") for d in context.get("opencl", {}).get("devices", [])]
    openmp = context.get("openmp") or {}
    return {"CPU": host.get("cpu_model"), "hardware threads": host.get("hardware_threads"),
            "OpenMP threads": openmp.get("max_threads"), "CUDA devices": ", ".join(cuda) or "none",
            "OpenCL devices": ", ".join(opencl) or "none", "compiler": context.get("compiler", {}).get("id")}


def main():
    parser = argparse.ArgumentParser(prog="ladder reproduce", description=__doc__.split("\n")[0])
    parser.add_argument("run")
    parser.add_argument("--ladder", required=True, help="the ladder program (given by `ladder reproduce` itself)")
    parser.add_argument("--out", default="results/reproduce", help="where the reruns' results go")
    parser.add_argument("--device-floor", type=float, default=0.03)
    parser.add_argument("--host-floor", type=float, default=0.05)
    parser.add_argument("--device-only", action="store_true",
                        help="rerun and compare only the rungs a device's events time (no CPU rungs, no peers)")
    args = parser.parse_args()
    files = results_files(args.run)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    peers = Path(__file__).with_name("peers.py")
    all_agree = True
    for reference_path in files:
        reference = load_results(PROGRAM, reference_path)
        rerun_path = out / plain_name(reference_path)
        arguments = rerun_arguments(reference["context"]["command_line"])
        arguments += [a for a in eviction_arguments(reference["context"]) if a not in arguments]
        arguments += ranks_arguments(reference, arguments)
        if args.device_only:
            print(f"== reproducing the device-timed rungs of {reference_path}", flush=True)
            chosen, passed = rerun_device_rungs(args.ladder, reference, arguments, rerun_path)
            all_agree &= passed
            left_out = sum(len(entry["rungs"]) + len(entry.get("peers") or []) for entry in reference["results"])
            reference = only_rungs(reference, chosen)
            left_out -= sum(len(entry["rungs"]) for entry in reference["results"])
            print(f"note: --device-only: {sum(map(len, chosen.values()))} device-timed rungs rerun and compared;"
                  f" the reference's {left_out} other rows (CPU rungs, rungs that did not run, peers) left out")
        else:
            command = [args.ladder, "run", *arguments, "--out", str(rerun_path)]
            print(f"== reproducing {reference_path}\n   {shlex.join(command)}", flush=True)
            status = subprocess.run(command).returncode
            if status > 1 or not rerun_path.is_file():
                fail(f"the rerun of {reference_path} ended with exit status {status}")
            all_agree &= status == 0
        if not args.device_only and any("peers" in entry for entry in reference["results"]):
            replicates = max(entry.get("replicates", 1) for entry in reference["results"])
            subprocess.run([sys.executable, str(peers), str(rerun_path), "--ladder", args.ladder,
                            "--replicates", str(replicates)], check=False)
        rerun = load_results(PROGRAM, rerun_path)
        theirs, ours = machine(reference["context"]), machine(rerun["context"])
        differences = [f"{key}: {theirs[key]} there, {ours[key]} here" for key in theirs if theirs[key] != ours[key]]
        if differences:
            print("note: this machine differs from the reference's (compared anyway):\n  " + "\n  ".join(differences))
        load = reference["context"].get("readings", {}).get("load_average_before")
        if load is None:
            print("note: the reference run does not record the machine's load")
        # A rung this ladder has and the reference's had not (added since) is named, not a difference.
        all_agree &= compare(reference, rerun, args.device_floor, args.host_floor, names=("reference", "rerun"),
                             new_rungs_differ=False)
    sys.exit(0 if all_agree else 1)


if __name__ == "__main__":
    main()
