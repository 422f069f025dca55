#!/usr/bin/env python3
"""ladder board: a workshop's own board, from what its participants handed in.

    ladder board CLASS_FOLDER [--out DIR] [--roster FILE] [--hide-names]

CLASS_FOLDER is the folder participants hand in to (`ladder check --track
exercises --class-folder DIR`): one folder per participant, one JSON file per
command. The board is a row per participant and a column per rung of each
exercise; a cell is that rung's latest verdict (pass, FAIL with its case, hang,
race, not implemented, skipped) and, where it passes, the best time handed in
for the same source files, as a multiple of the solution's time on the same
machine. Per exercise, a chart of the room's progress up the ladder (how many
pass each rung) and of its fastest correct time on each rung against the
solution's. Who has not handed in: the roster's names (one a line, --roster)
with no file, and any participant's folder that holds none.

Writes DIR/board.html (one self-contained page, for a projector 1920 pixels
wide), DIR/board.md and DIR/board.csv (the same cells), each written whole
under another name and then moved into place. --hide-names shows each
participant as a number (their place in the sorted names) for projection, and
leaves out the page's tooltips of each check's whole line (they can name a
participant's own paths).

A file that is not a hand-in (not JSON, another kind or version, fields
missing) is listed on the board as unreadable and read no further: one
participant's broken file never hides the others'. A folder named by another
participant than the one its files name is flagged. Exit status 0; 2 where
CLASS_FOLDER is not a folder or DIR cannot be written.
"""
import argparse
import csv
import html
import io
import json
import os
import re
import sys
from pathlib import Path

PROGRAM = "ladder board"
# The order a rung's verdicts are told apart in, and how each cell is named.
LABELS = {"pass": "pass", "fail": "FAIL", "hang": "hang", "race": "race", "implausible": "implausible",
          "not_implemented": "not implemented", "skipped": "skipped", "no_skeleton": "no skeleton"}
COLOURS = {"pass": "#c8e6c9", "fail": "#ffcdd2", "hang": "#ffe0b2", "race": "#ffe0b2", "implausible": "#ffcdd2",
           "not_implemented": "#eeeeee", "skipped": "#e3f2fd", "no_skeleton": "#ffffff"}


def fail(message):
    print(f"{PROGRAM}: error: {message}", file=sys.stderr)
    sys.exit(2)


def read_hand_in(path):
    """A handed-in file as a dict, or the reason it is not one."""
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, ValueError) as error:
        return None, f"not readable as JSON ({type(error).__name__})"
    if not isinstance(data, dict) or data.get("kind") != "ladder-hand-in" or data.get("version") != 1:
        return None, "not a hand-in of version 1 (written by `ladder check` or `ladder run --class-folder`)"
    try:
        if not isinstance(data["exercise"], str) or not isinstance(data["context"]["time"], str):
            raise TypeError("exercise or time")
        for row in data["rungs"]:
            if not isinstance(row["rung"], str) or row["verdict"] not in LABELS or not isinstance(row["text"], str):
                raise TypeError("a rung's row")
    except (KeyError, TypeError) as error:
        return None, f"a hand-in with a field missing or malformed ({error})"
    return data, None


def verdict_of(row):
    """pass, fail, hang, race, ...: a FAIL whose words say the rung hung or raced is named so."""
    if row["verdict"] != "fail":
        return row["verdict"]
    text = row["text"].lower()
    if re.search(r"\b(hang|hung)\b", text):  # whole words: "a change" is no hang
        return "hang"
    if re.search(r"\b(race|races|racecheck)\b", text):
        return "race"
    return "fail"


def failed_case(text):
    """The case a FAIL names: "FAIL case n=1001 seed=2 (catches: ...): ..." gives "n=1001 seed=2 (catches: ...)"."""
    match = re.match(r"FAIL case ([^:(]*(?:\([^)]*\))?): ", text)  # the parameters, and what the case catches
    return match.group(1) if match else text[:80]


def collect(folder):
    """Every participant's hand-ins: ({participant: [hand-in, ...]}, [(path, why), ...] unreadable,
    [(participant, named), ...] files naming another participant than their folder)."""
    handed, unreadable, misnamed = {}, [], []
    for person in sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")):
        handed[person.name] = []
        for path in sorted(person.glob("*.json")):  # a .partial file is not handed in yet
            data, why = read_hand_in(path)
            if data is None:
                unreadable.append((path, why))
                continue
            named = data["context"].get("participant")
            if named is not None and named != person.name:
                misnamed.append((person.name, named))
            data["_file"], data["_mtime"] = path.name, path.stat().st_mtime_ns
            handed[person.name].append(data)
    return handed, unreadable, misnamed


def cells(hand_ins):
    """{(exercise, rung): cell} of one participant: the latest verdict (by time handed in) and, where it passes, the best time of any passing hand-in of the same source files."""
    rows = {}
    # Times are to the second: two hand-ins of one second are told apart by when their files were written.
    for data in sorted(hand_ins, key=lambda d: (d["context"]["time"], d["_mtime"], d["_file"])):
        for row in data["rungs"]:
            rows.setdefault((data["exercise"], row["rung"]), []).append((data, row))
    table = {}
    for key, history in rows.items():
        latest_data, latest = history[-1]
        cell = {"verdict": verdict_of(latest), "text": latest["text"], "time": latest_data["context"]["time"],
                "machine": latest_data["context"].get("machine", {}).get("host")}
        if cell["verdict"] == "fail":
            cell["case"] = failed_case(latest["text"])
        if cell["verdict"] == "pass":
            same = [row for _, row in history if row["verdict"] == "pass" and row.get("sources") == latest.get("sources")
                    and row.get("compute_s")]
            if same:
                best = min(same, key=lambda row: row["compute_s"])
                cell["compute_s"] = best["compute_s"]
                if best.get("solution_compute_s"):
                    cell["vs_solution"] = best["compute_s"] / best["solution_compute_s"]
                if best.get("fraction_of_ceiling"):  # a run's hand-in: the share of this machine's ceiling
                    cell["of_ceiling"] = best["fraction_of_ceiling"]["compute"]
        table[key] = cell
    return table


def format_time(seconds):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds * 1e9:.3g} ns"


def cell_words(cell):
    """A cell in words, as the Markdown and CSV tables and the page's tooltips give it."""
    if cell is None:
        return ""
    words = LABELS[cell["verdict"]]
    if cell["verdict"] == "fail":
        words += f": {cell['case']}"
    if "vs_solution" in cell:
        words += f", {format_time(cell['compute_s'])} ({cell['vs_solution']:.2f}x the solution's)"
    elif "compute_s" in cell:
        words += f", {format_time(cell['compute_s'])}"
    if "of_ceiling" in cell:
        words += f", {cell['of_ceiling']:.0%} of the ceiling"
    return words


def board(folder, roster, hide_names):
    """Everything the three files show: participants (shown names), exercises and their rungs, cells."""
    handed, unreadable, misnamed = collect(folder)
    names = sorted(set(handed) | set(roster))
    shown = {name: (f"participant {i}" if hide_names else name) for i, name in enumerate(names, 1)}
    table = {name: cells(handed.get(name, [])) for name in names}
    # Each exercise's rungs in the order its hand-ins list them (the ladder's order).
    exercises = {}
    for name in names:
        for data in handed.get(name, []):
            order = exercises.setdefault(data["exercise"], [])
            for row in data["rungs"]:
                if row["rung"] not in order:
                    order.append(row["rung"])
    missing = [name for name in names if not handed.get(name)]
    return {"names": names, "shown": shown, "hidden": hide_names, "table": table, "exercises": dict(sorted(exercises.items())),
            "missing": missing, "unreadable": unreadable, "misnamed": misnamed, "handed": handed}


def progress(b, exercise):
    """Per rung of an exercise: how many pass, and the fastest correct time against the solution's."""
    out = []
    for rung in b["exercises"][exercise]:
        passing = [b["table"][n][(exercise, rung)] for n in b["names"]
                   if b["table"][n].get((exercise, rung), {}).get("verdict") == "pass"]
        ratios = [c["vs_solution"] for c in passing if "vs_solution" in c]
        out.append((rung, len(passing), min(ratios) if ratios else None))
    return out


def csv_text(b):
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["participant", "exercise", "rung", "verdict", "case", "compute_s", "vs_solution", "of_ceiling",
                     "handed_in"])
    for name in b["names"]:
        for exercise, rungs in b["exercises"].items():
            for rung in rungs:
                cell = b["table"][name].get((exercise, rung))
                if cell:
                    writer.writerow([b["shown"][name], exercise, rung, cell["verdict"], cell.get("case", ""),
                                     cell.get("compute_s", ""), f"{cell['vs_solution']:.4g}" if "vs_solution" in cell
                                     else "", f"{cell['of_ceiling']:.4g}" if "of_ceiling" in cell else "",
                                     cell["time"]])
    return out.getvalue()


def markdown_text(b):
    lines = ["# The class's board", ""]
    for exercise, rungs in b["exercises"].items():
        lines += [f"## {exercise}", "", "| participant | " + " | ".join(rungs) + " |",
                  "| --- |" + " --- |" * len(rungs)]
        for name in b["names"]:
            row = [cell_words(b["table"][name].get((exercise, rung))).replace("|", "/") for rung in rungs]
            lines.append(f"| {b['shown'][name]} | " + " | ".join(row) + " |")
        counts = ", ".join(f"{rung} {n}" for rung, n, _ in progress(b, exercise))
        lines += ["", f"Passing, of {len(b['names'])}: {counts}.", ""]
    lines += notes_lines(b)
    return "\n".join(lines) + "\n"


def notes_lines(b):
    lines = []
    if b["missing"]:
        lines.append("Not handed in: " + ", ".join(b["shown"][n] for n in b["missing"]) + ".")
    for path, why in b["unreadable"]:
        lines.append(f"Unreadable: a file of {b['shown'][path.parent.name]}'s ({path.name}): {why}.")
    for folder, named in b["misnamed"]:
        other = "" if b["hidden"] else f" ({named})"
        lines.append(f"A file in {b['shown'][folder]}'s folder names another participant{other}.")
    return lines


def bar_chart(title, bars):
    """A horizontal bar chart as inline SVG: bars is [(label, value or None, text)]."""
    width, row, left = 900, 34, 260
    top = max((v for _, v, _ in bars if v is not None), default=1) or 1
    parts = [f'<svg width="{width}" height="{row * len(bars) + 50}" role="img" aria-label="{html.escape(title)}">',
             f'<text x="0" y="20" class="chart-title">{html.escape(title)}</text>']
    for i, (label, value, text) in enumerate(bars):
        y = 36 + i * row
        parts.append(f'<text x="{left - 10}" y="{y + 20}" text-anchor="end">{html.escape(label)}</text>')
        if value is not None:
            length = max(2, (width - left - 220) * value / top)
            parts.append(f'<rect x="{left}" y="{y + 4}" width="{length:.1f}" height="{row - 10}" fill="#5c8fd6"/>')
            parts.append(f'<text x="{left + length + 8}" y="{y + 20}">{html.escape(text)}</text>')
        else:
            parts.append(f'<text x="{left}" y="{y + 20}" fill="#777">{html.escape(text)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def html_text(b):
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8"><title>The class\'s board</title>',
           "<style>body{font-family:sans-serif;font-size:20px;margin:24px;max-width:1872px}"
           "table{border-collapse:collapse;margin-bottom:16px}td,th{border:1px solid #999;padding:6px 10px;"
           "vertical-align:top}th{background:#f4f4f4}td.cell{min-width:120px}.small{font-size:16px;color:#333}"
           ".charts{display:flex;gap:24px;flex-wrap:wrap}.chart-title{font-weight:bold}svg text{font-size:18px}"
           "</style></head><body>", "<h1>The class's board</h1>",
           f"<p>{len(b['names'])} participants; each cell is the latest verdict handed in, and where it passes "
           "the best time for the same source files as a multiple of the solution's on the same machine "
           "(a check's) or as a share of the machine's ceiling (a run's). A time above 1.5 times its bandwidth "
           "is implausible, never a record.</p>"]
    for exercise, rungs in b["exercises"].items():
        out.append(f'<h2 id="{e(exercise)}">{e(exercise)}</h2>')
        out.append("<table><tr><th>participant</th>" + "".join(f"<th>{e(r)}</th>" for r in rungs) + "</tr>")
        for name in b["names"]:
            row = [f"<td>{e(b['shown'][name])}</td>"]
            for rung in rungs:
                cell = b["table"][name].get((exercise, rung))
                if cell is None:
                    row.append('<td class="cell"></td>')
                    continue
                detail = ""
                if cell["verdict"] == "fail":
                    detail = f'<div class="small">{e(cell["case"])}</div>'
                elif "vs_solution" in cell:
                    detail = (f'<div class="small">{e(format_time(cell["compute_s"]))}, '
                              f'{cell["vs_solution"]:.2f}x the solution</div>')
                elif "of_ceiling" in cell:  # a run's hand-in: no solution timed beside it
                    detail = (f'<div class="small">{e(format_time(cell["compute_s"]))}, '
                              f'{cell["of_ceiling"]:.0%} of the ceiling</div>')
                # The check's whole line as a tooltip, but not for projection: it can name the
                # participant's own paths (a Python rung's file and line).
                title = "" if b["hidden"] else f' title="{e(cell["text"])}"'
                row.append(f'<td class="cell" data-verdict="{cell["verdict"]}" style="background:'
                           f'{COLOURS[cell["verdict"]]}"{title}>{e(LABELS[cell["verdict"]])}{detail}</td>')
            out.append("<tr>" + "".join(row) + "</tr>")
        out.append("</table>")
        steps = progress(b, exercise)
        passing = bar_chart(f"{exercise}: participants passing each rung, of {len(b['names'])}",
                            [(rung, n, str(n)) for rung, n, _ in steps])
        fastest = bar_chart(f"{exercise}: the room's fastest correct time, x the solution's",
                            [(rung, r, f"{r:.2f}x" if r is not None else "no timed pass") for rung, _, r in steps])
        out.append(f'<div class="charts">{passing}{fastest}</div>')
    notes = notes_lines(b)
    if notes:
        out.append("<h2>Notes</h2><ul>" + "".join(f"<li>{e(line)}</li>" for line in notes) + "</ul>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write_whole(path, text):
    """Written under another name, then moved into place: a reader never sees half a board."""
    temporary = path.with_name(f".{path.name}.partial")
    temporary.write_text(text)
    os.replace(temporary, path)


def main():
    parser = argparse.ArgumentParser(prog=PROGRAM, description=__doc__.split("\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--out", default="board", help="the board's folder DIR: DIR/board.html, DIR/board.md, DIR/board.csv (default board)")
    parser.add_argument("--roster", help="the class's names, one a line: who has not handed in is said")
    parser.add_argument("--hide-names", action="store_true", help="a number for each participant (for projection)")
    args = parser.parse_args()
    folder = Path(args.folder)
    if not folder.is_dir():
        fail(f"{folder}: not a folder (the class folder participants hand in to)")
    roster = []
    if args.roster:
        try:
            roster = [line.strip() for line in Path(args.roster).read_text().splitlines() if line.strip()]
        except (OSError, UnicodeDecodeError) as error:
            fail(f"{args.roster}: cannot read the roster ({error})")
        bad = [name for name in roster if not re.fullmatch(r"[A-Za-z0-9._-]+", name)]
        if bad:
            fail(f"{args.roster}: not a name (letters, digits, . _ -): {bad[0]!r}")
    try:
        b = board(folder, roster, args.hide_names)
    except OSError as error:
        fail(f"{folder}: cannot read the class folder ({error})")
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        for kind, text in (("html", html_text(b)), ("md", markdown_text(b)), ("csv", csv_text(b))):
            write_whole(out / f"board.{kind}", text)
    except OSError as error:
        fail(f"{out}: cannot write the board ({error})")
    print(f"board: {len(b['names'])} participants, {sum(len(h) for h in b['handed'].values())} files handed in,"
          f" {len(b['unreadable'])} unreadable, {len(b['missing'])} not handed in: {out / 'board.html'}")


if __name__ == "__main__":
    main()
