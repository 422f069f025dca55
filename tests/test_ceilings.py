#!/usr/bin/env python3
"""Ceilings are ceilings: on vector_add at the workshop size (192 MiB of traffic
per run, far beyond the caches), no row on the host reaches more than 100 % of
the measured host bandwidth, by more than the measurement's own noise (how far
the ceiling's best pass stands above its median pass) and 5 % of timing noise."""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ladder = sys.argv[1]
with tempfile.TemporaryDirectory() as directory:
    out = Path(directory) / "r.json"
    run = subprocess.run([ladder, "run", "vector_add", "--variants", "naive,serial,openmp,opencl", "--min-time", "0.1",
                          "--out", str(out)], capture_output=True, text=True)
    if run.returncode != 0:
        print(run.stdout + run.stderr)
        sys.exit(1)
    results = json.loads(out.read_text())

# A ceiling is measured by this build's own code: in a Debug or sanitizer
# build it is slow, and rungs the build does not instrument (PoCL's
# kernels) pass it. The test means something for optimised builds only.
compiler = results["context"]["compiler"]
if compiler["build_type"] != "Release" or "-fsanitize" in compiler["flags"]:
    print(f"skipped: a {compiler['build_type']} build ({compiler['flags'].strip()}) does not measure ceilings")
    sys.exit(77)

ceilings = results["context"]["ceilings"]
allowed = ceilings["host_best_over_median"] + 0.05
print(f"host ceiling {ceilings['host_bytes_per_s'] / 1e9:.1f} GB/s ({ceilings['host_kernel']}), "
      f"best over median {ceilings['host_best_over_median']:.3f}: rows may reach {allowed * 100:.0f} %")
failures = []
# The host's scaling, measured beside the bandwidth: the same work on every
# thread cannot run much faster per thread than on one. Memory can scale
# past the thread count (one thread of a server CPU has too few reads in
# flight to get its share: 29x on 16 threads measured on an H200 host), so
# that bound is loose.
scaling = ceilings["host_scaling"]
print(f"host scaling to {scaling['threads']} threads: clock {scaling['clock_efficiency']:.2f}, "
      f"vector work {scaling['compute_efficiency']:.2f} per thread, "
      f"memory {scaling['memory_speedup']:.2f}x")
if scaling["threads"] != results["context"]["ceilings"]["host_threads"]:
    failures.append(f"host scaling measured on {scaling['threads']} threads, the run has {ceilings['host_threads']}")
for key in ("clock_efficiency", "compute_efficiency"):
    if not 0.1 < scaling[key] < 1.3:
        failures.append(f"{key} {scaling[key]} is not a plausible ratio")
if not 0.2 < scaling["memory_speedup"] < 4 * scaling["threads"]:
    failures.append(f"memory speed-up {scaling['memory_speedup']} on {scaling['threads']} threads is not plausible")
checked = 0
for row in results["results"][0]["rungs"]:
    if row["status"] != "ok" or row.get("device_kind") != "cpu":
        continue
    fraction = row["timings"]["fraction_of_ceiling"]["compute"]
    checked += 1
    print(f"  {row['rung']:8} {fraction * 100:6.1f} % of the host ceiling")
    if fraction > allowed:
        failures.append(f"{row['rung']} reaches {fraction * 100:.0f} % of the host ceiling")
if checked < 3:
    failures.append(f"only {checked} host rows ran")
for failure in failures:
    print("FAILED:", failure)
sys.exit(1 if failures else 0)
