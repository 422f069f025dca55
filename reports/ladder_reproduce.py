#!/usr/bin/env python3
"""ladder reproduce: rerun a committed reference run on this machine and compare.

    ladder reproduce RUN [--out DIR] [--device-floor F] [--host-floor F]

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

Exit status: 0 every file reproduces, 1 some row differs or a rung failed,
2 bad usage.
"""
import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path

from ladder_compare import compare, l2_eviction
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


def rerun_arguments(command_line):
    """The `ladder run` arguments of a recorded command line, without --out."""
    words = shlex.split(command_line)
    if "run" not in words:
        fail(f"the recorded command line is not a `ladder run`: {command_line}")
    words = words[words.index("run") + 1:]
    kept, skip = [], False
    for word in words:
        if skip:
            skip = False
            continue
        if word == "--out":
            skip = True
            continue
        if word.startswith("--out="):
            continue
        kept.append(word)
    return kept


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
        command = [args.ladder, "run", *arguments, "--out", str(rerun_path)]
        print(f"== reproducing {reference_path}\n   {shlex.join(command)}", flush=True)
        status = subprocess.run(command).returncode
        if status > 1 or not rerun_path.is_file():
            fail(f"the rerun of {reference_path} ended with exit status {status}")
        all_agree &= status == 0
        if any("peers" in entry for entry in reference["results"]):
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
