#!/usr/bin/env python3
"""Every time a README quotes from a committed run is still in that run.

The convention (README.md, "Reference runs, and the numbers in the
READMEs"): a passage that quotes a run links to it, `[...](path/to/
reports/runs/DIR)` (reference runs) or `reports/experiments/DIR` (earlier runs and
experiments), or `.../DIR/FILE.json`, and every time figure (`637 µs`,
`2.40 ms`, `3.60 s`) in a table row after the link, up to the next heading
or the next such link, is a figure of that run. Such a
figure must equal, to the digits shown, some number in the run's files:
the results JSON (seconds, or milliseconds in keys ending `_ms`), the
peers' JSON lines, or a time printed in the run's logs.

    test_readme_quotes.py SOURCE_DIR
"""
import gzip
import json
import math
import re
import sys
from pathlib import Path

UNITS = {"s": 1.0, "ms": 1e-3, "µs": 1e-6, "us": 1e-6, "ns": 1e-9}
TIME = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(ms|µs|us|ns|s)\b")
RUN_LINK = re.compile(r"\[[^\]]*\]\(([^)]*reports/(?:runs|experiments)/[^)]*)\)")


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


def times_of_run(folder):
    """All the times a run's files hold (a folder's, or one file's), in seconds."""
    times = []
    for path in [folder] if folder.is_file() else sorted(folder.rglob("*")):
        if path.suffix == ".json":
            times.extend(times_in(json.loads(path.read_text())))
        elif path.name.endswith(".json.gz"):  # the committed runs keep their largest results files gzipped
            with gzip.open(path, "rt") as text:
                times.extend(times_in(json.load(text)))
        elif path.suffix == ".jsonl":
            for line in path.read_text().splitlines():
                if line.strip():
                    times.extend(times_in(json.loads(line)))
        elif path.suffix in (".log", ".txt"):
            times.extend(float(n) * UNITS[u] for n, u in TIME.findall(path.read_text(errors="replace")) if float(n) > 0)
    return times


def shown_as(value, quoted_text):
    """value rounded to the significant digits of quoted_text."""
    digits = len(quoted_text.replace(".", "").lstrip("0")) or 1
    exponent = math.floor(math.log10(value)) - digits + 1
    return round(value / 10**exponent) * 10**exponent


def main():
    source = Path(sys.argv[1])
    readmes = sorted(source.glob("solutions/*/README.md")) + sorted(source.glob("exercises/*/README.md"))
    failures, checked = [], 0
    for readme in readmes:
        run, times, quoted_here = None, [], 0
        for number, line in enumerate(readme.read_text().splitlines(), 1):
            link = RUN_LINK.search(line)
            if link:
                run = (readme.parent / link.group(1)).resolve()
                if not run.exists():
                    failures.append(f"{readme.relative_to(source)}:{number}: {link.group(1)} does not exist")
                    run = None
                    continue
                times = times_of_run(run)
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
                    failures.append(f"{readme.relative_to(source)}:{number}: {text} {unit} is in no file of "
                                    f"{run.relative_to(source.resolve())}")
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
