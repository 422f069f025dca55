#!/usr/bin/env python3
"""The repository stands on its own: no reference points at a file it does not hold.

Fails on
  - a Markdown link [text](target) in a tracked .md file whose target (a relative
    path; URLs, mailto: and #anchors aside) does not exist;
  - an exercise (a folder of bench/problems/ holding its problem, <ex>/<ex>.cpp)
    without its row in the README's table of exercises, linking its specification;
  - a mention, in any tracked text file, of ../shared/ (the briefing folder beside
    a developer's checkout, which readers do not have) or of a Markdown file name
    that no tracked file bears.
Committed runs' own outputs (.json, .json.gz, .jsonl, .log, .txt, .csv, .html under
reports/runs/ and reports/experiments/) are records, not references, and are not read.

    test_links.py SOURCE_DIR
"""
import os
import re
import subprocess
import sys
from pathlib import Path

root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
listed = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True)
if listed.returncode != 0:  # a copy of the tree without its .git (an archive): nothing says what is tracked
    print(f"skipped: {root} is not a git checkout ({listed.stderr.strip()})")
    sys.exit(77)
files = listed.stdout.split()
# What a fresh clone holds: the tracked files and the folders above them.
tracked = set(files) | {str(parent) for f in files for parent in Path(f).parents if str(parent) != "."} | {"."}
# Files added but not yet committed count too (a fresh clone holds what is committed).
names = {Path(f).name for f in files}
RECORDS = (".json", ".json.gz", ".jsonl", ".log", ".txt", ".csv", ".html", ".svg", ".png", ".npy", ".fits")
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
MENTION = re.compile(r"(?<![\w/.-])((?:\.\./)+shared/[\w./-]*|[A-Za-z0-9_-]+\.md)\b")

failures = []
for name in files:
    path = root / name
    if not path.is_file() or (name.startswith(("reports/runs/", "reports/experiments/")) and name.endswith(RECORDS)):
        continue
    try:
        text = path.read_text()
    except UnicodeDecodeError:
        continue  # a binary file
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if name.endswith(".md"):
            if line.lstrip().startswith("```"):
                fenced = not fenced
            # Links in code (fenced blocks, `inline`) are examples, not links.
            prose = "" if fenced else re.sub(r"`[^`]*`", "", line)
            for target in LINK.findall(prose):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                    continue
                relative = target.split("#")[0]
                # In the repository means tracked: a file that is only here (ignored, or not
                # added) is missing from a fresh clone.
                if relative and os.path.relpath(os.path.normpath(path.parent / relative), root) not in tracked:
                    failures.append(f"{name}:{number}: link to {target}, which is not in the repository")
        for mention in MENTION.findall(line):
            if "shared/" in mention:
                failures.append(f"{name}:{number}: mentions {mention}: outside the repository")
            elif mention not in names:
                failures.append(f"{name}:{number}: mentions {mention}, which no file in the repository is called")

# The front door lists every exercise: a new one fails here until it has its row.
readme = (root / "README.md").read_text()
for problem in sorted((root / "bench/problems").glob("*/*.cpp")):
    exercise = problem.parent.name
    if problem.stem == exercise and f"| [{exercise}](bench/problems/{exercise}/README.md) |" not in readme:
        failures.append(f"README.md: the table of exercises has no row for {exercise} "
                        f"(| [{exercise}](bench/problems/{exercise}/README.md) | [sheet](...) | ...)")

for failure in failures:
    print("FAILED:", failure)
print(f"{len(files)} files read, {len(failures)} dangling references")
sys.exit(1 if failures else 0)
