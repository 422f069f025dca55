#!/usr/bin/env python3
"""Every time a README quotes from a committed run is still in that run.

The convention (docs/records.md): a passage that quotes a run names it,
either as a link to a run in the tree, `[...](path/to/reports/runs/DIR)`, or as
a record that left the tree, `` `REV:reports/experiments/DIR` `` (what `git show`
takes: the folder as commit REV holds it). Every time figure (`637 µs`,
`2.40 ms`, `3.60 s`) in a table row after it, up to the next heading or the
next such reference, is a figure of that run; a table row that names a run
itself is checked against that run. Such a figure must equal, to the
digits shown, some number in the run's files: the results JSON (seconds, or
milliseconds in keys ending `_ms`), the peers' JSON lines, or a time printed in
the run's logs.

A record is read from the repository's history, so this test needs a clone
that holds the commits it names (a full `git clone`; a shallow one fails here,
and `git fetch --unshallow` mends it).

    test_readme_quotes.py SOURCE_DIR
"""
import gzip
import json
import math
import re
import subprocess
import sys
from pathlib import Path

UNITS = {"s": 1.0, "ms": 1e-3, "µs": 1e-6, "us": 1e-6, "ns": 1e-9}
TIME = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(ms|µs|us|ns|s)\b")
RUN_LINK = re.compile(r"\[[^\]]*\]\(([^)]*reports/runs/[^)]*)\)")
RECORD = re.compile(r"`([0-9a-f]{7,40}):(reports/(?:runs|experiments)/[^`\s]*)`")


def times_in(value, key=""):
    """The summary times of a JSON document, in seconds: values of keys ending
    in _s, _ms or _us (median_s, min_s, scipy_ms, ...), not single samples."""
    if isinstance(value, dict):
        for name, item in value.items():
            if not name.startswith("samples"):
                yield from times_in(item, name)
    elif isinstance(value, list):
        for item in value:
            yield from times_in(item, key)
    elif isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        for suffix, scale in (("_ms", 1e-3), ("_us", 1e-6), ("_s", 1.0)):
            if key.endswith(suffix):
                yield float(value) * scale
                break


def times_in_file(name, data):
    """The times one file holds (its name and its bytes), in seconds."""
    if name.endswith(".json"):
        return list(times_in(json.loads(data)))
    if name.endswith(".json.gz"):  # the committed runs keep their largest results files gzipped
        return list(times_in(json.loads(gzip.decompress(data))))
    if name.endswith(".jsonl"):
        return [t for line in data.decode().splitlines() if line.strip() for t in times_in(json.loads(line))]
    if name.endswith((".log", ".txt")):
        text = data.decode(errors="replace")
        return [float(n) * UNITS[u] for n, u in TIME.findall(text) if float(n) > 0]
    return []


def times_of_run(folder):
    """All the times a run's files hold (a folder's, or one file's), in seconds."""
    paths = [folder] if folder.is_file() else sorted(p for p in folder.rglob("*") if p.is_file())
    return [t for path in paths for t in times_in_file(path.name, path.read_bytes())]


def git(source, *args):
    return subprocess.run(["git", *args], cwd=source, capture_output=True, check=True).stdout


def times_of_record(source, rev, path):
    """The same, for a run that left the tree: the files under path at commit rev.
    None where the clone does not hold them."""
    try:
        names = git(source, "ls-tree", "-r", "--name-only", rev, "--", path).decode().split("\n")
        names = [n for n in names if n]
        return [t for n in names for t in times_in_file(n, git(source, "show", f"{rev}:{n}"))] if names else None
    except subprocess.CalledProcessError:
        return None


def shown_as(value, quoted_text):
    """value rounded to the significant digits of quoted_text."""
    digits = len(quoted_text.replace(".", "").lstrip("0")) or 1
    exponent = math.floor(math.log10(value)) - digits + 1
    return round(value / 10**exponent) * 10**exponent


def main():
    source = Path(sys.argv[1])
    readmes = (sorted(source.glob("solutions/*/README.md")) + sorted(source.glob("exercises/*/README.md"))
               + [source / "README.md"] + sorted(source.glob("docs/*.md")) + sorted(source.glob("reports/runs/*/README.md")))
    failures, checked = [], 0
    for readme in readmes:
        run, times, quoted_here = None, [], 0
        for number, line in enumerate(readme.read_text().splitlines(), 1):
            record = RECORD.search(line)
            if record:
                rev, path = record.groups()
                times = times_of_record(source, rev, path)
                run = f"{rev}:{path}"
                if times is None:
                    failures.append(f"{readme.relative_to(source)}:{number}: {run} is not in this clone's history "
                                    "(a shallow clone? git fetch --unshallow)")
                    run = None
                if not line.startswith("|"):
                    continue  # a table row that names its record is checked against it, below
            link = None if record else RUN_LINK.search(line)
            if link:
                run = (readme.parent / link.group(1)).resolve()
                if not run.exists():
                    failures.append(f"{readme.relative_to(source)}:{number}: {link.group(1)} does not exist")
                    run = None
                    continue
                times = times_of_run(run)
                if not line.startswith("|"):
                    continue
            if line.startswith("#"):
                run = None  # a section quotes its own run only
                continue
            if run is None or not line.startswith("|"):
                continue
            for text, unit in TIME.findall(line):
                quoted = float(text) * UNITS[unit]
                quoted_here += 1
                if not any(abs(shown_as(t, text) - quoted) <= 1e-9 * quoted for t in times):
                    where = run if isinstance(run, str) else run.relative_to(source.resolve())
                    failures.append(f"{readme.relative_to(source)}:{number}: {text} {unit} is in no file of {where}")
        checked += quoted_here
        print(f"{readme.relative_to(source)}: {quoted_here} quoted time(s) checked")
    for failure in failures:
        print("FAILED:", failure)
    if checked == 0:
        print("FAILED: no README quotes a committed run")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
