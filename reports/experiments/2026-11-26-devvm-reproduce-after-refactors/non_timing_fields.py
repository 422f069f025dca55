#!/usr/bin/env python3
"""Are two results files the same run apart from their timings? Every
exercise's inputs, parameters, seed, size, threads, track and minimum work,
and every rung's backend, device, status and check result (its errors
against the reference), compared field by field.

    python3 non_timing_fields.py A.json[.gz] B.json[.gz]
"""
import gzip
import json
import sys


def load(path):
    return json.load(gzip.open(path) if path.endswith(".gz") else open(path))


a, b = load(sys.argv[1]), load(sys.argv[2])
same = differ = 0
for entry_a, entry_b in zip(a["results"], b["results"], strict=True):
    for key in ("exercise", "input_checksums", "parameters", "replicates", "seed", "size", "threads", "track", "work"):
        if entry_a[key] != entry_b[key]:
            print(f"{entry_a['exercise']}: {key} differs")
            differ += 1
    rungs_a = {r["rung"]: r for r in entry_a["rungs"]}
    rungs_b = {r["rung"]: r for r in entry_b["rungs"]}
    if rungs_a.keys() != rungs_b.keys():
        print(f"{entry_a['exercise']}: the rungs differ")
        differ += 1
    for name in rungs_a.keys() & rungs_b.keys():
        for key in ("backend", "check", "device", "device_kind", "host_memory", "rung", "status"):
            if rungs_a[name].get(key) != rungs_b[name].get(key):
                print(f"{entry_a['exercise']}/{name}: {key} differs")
                differ += 1
            else:
                same += 1
print(f"{same} rung fields the same, {differ} differ")
sys.exit(1 if differ else 0)
