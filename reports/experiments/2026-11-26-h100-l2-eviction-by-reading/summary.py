#!/usr/bin/env python3
"""The compute-only median of every GPU rung, evicting by reading and by writing, two rounds each:
the table of this folder's README (python3 summary.py, in this folder)."""
import gzip
import json
from pathlib import Path

here = Path(__file__).resolve().parent
figures = {}
for path in sorted(here.glob("*-[12]/*.json*")):
    way, round_ = path.parent.name.split("-")
    text = gzip.open(path, "rt").read() if path.suffix == ".gz" else path.read_text()
    size = "large" if "large" in path.name else "workshop"
    for entry in json.loads(text)["results"]:
        for row in entry["rungs"]:
            if row["status"] == "ok":
                key = (entry["exercise"], size, row["rung"])
                figures.setdefault(key, {})[(way, round_)] = row["timings"]["compute"]["median_s"] * 1e6

print("| exercise | size | rung | reading, 1 | reading, 2 | writing, 1 | writing, 2 | writing / reading |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for (exercise, size, rung), f in figures.items():
    reading = [f[("reading", r)] for r in "12"]
    writing = [f[("writing", r)] for r in "12"]
    cells = " | ".join(f"{t:.1f} µs" for t in reading + writing)
    print(f"| {exercise} | {size} | {rung} | {cells} | {sum(writing) / sum(reading):.3f} |")
