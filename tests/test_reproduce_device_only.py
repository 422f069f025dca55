#!/usr/bin/env python3
"""`ladder reproduce --device-only` chooses what a reviewer of the kernels judges:
on the committed one-H200 run, every rung the device's events time (CUDA, and
OpenCL and Python on the GPU) and nothing else, an exercise at a time, with the
recorded options kept; and a run with no such rung (the development machine's,
OpenCL on PoCL) is refused with one message and exit status 2.

    test_reproduce_device_only.py LADDER H200_RESULTS DEVVM_RESULTS
"""
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "reports"))
from ladder_compare import device_timed  # noqa: E402
from ladder_reproduce import device_rungs, one_exercise_arguments, only_rungs, rerun_arguments  # noqa: E402
from ladder_results import load_results  # noqa: E402

ladder, h200, devvm = sys.argv[1:4]
failures = []


def check(condition, what, detail=""):
    if not condition:
        failures.append(what)
        print(f"FAILED: {what}\n{detail}")


reference = load_results("test", h200)
chosen = device_rungs(reference)
for entry in reference["results"]:
    ran = {row["rung"]: row for row in entry["rungs"] if row["status"] == "ok"}
    picked = set(chosen.get(entry["exercise"], []))
    check(picked <= set(ran), f"{entry['exercise']}: only rungs that ran are chosen", str(picked - set(ran)))
    for name, row in ran.items():
        on_device = device_timed(row, "compute")
        check((name in picked) == on_device, f"{entry['exercise']}/{name} chosen exactly when the device times it",
              f"backend {row.get('backend')}, device kind {row.get('device_kind')}")
# What the one-H200 run has, by its own rows: a CUDA rung, a Python rung on the GPU, no openmp rung.
check(any(row["backend"] == "python" and row["rung"] in chosen.get(entry["exercise"], [])
          for entry in reference["results"] for row in entry["rungs"]), "a Python rung on the GPU is chosen")
check(not any(row["backend"] in ("host", "openmp", "mpi") and row["rung"] in chosen.get(entry["exercise"], [])
              for entry in reference["results"] for row in entry["rungs"]), "no CPU rung is chosen")

kept = only_rungs(reference, chosen)
check(all("peers" not in entry for entry in kept["results"]), "the compared copy holds no peers")
check(sum(len(e["rungs"]) for e in kept["results"]) == sum(map(len, chosen.values())),
      "the compared copy holds the chosen rungs and no other")
check(reference["results"][0].get("peers") is not None, "the reference itself is left as it was")

arguments = rerun_arguments("/x/ladder run histogram convolution --size large --variants naive,cuda "
                            "--repetitions 3 --out /tmp/r.json")
words = one_exercise_arguments(arguments, {"histogram", "convolution"}, "histogram", ["cuda", "cuda_cub"])
check(words == ["histogram", "--size", "large", "--repetitions", "3", "--variants", "cuda,cuda_cub"],
      "one exercise's rerun keeps the recorded options, its own exercise and its own rungs", str(words))

with tempfile.TemporaryDirectory() as directory:
    run = subprocess.run([ladder, "reproduce", devvm, "--device-only", "--out", directory],
                         capture_output=True, text=True)
    check(run.returncode == 2 and "no rung timed by a device's events" in run.stderr
          and run.stderr.count("\n") == 1, "a run with no device-timed rung is refused in one line, exit 2",
          f"exit {run.returncode}\n{run.stdout}\n{run.stderr}")

print(f"{len(failures)} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
