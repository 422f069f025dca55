#!/usr/bin/env python3
"""The board's page as a projector shows it: headless Chromium at 1920 x 1080.

    board_in_browser.py BOARD_DIR [SCREENSHOT.png]

Opens BOARD_DIR/board.html in Chromium with a short script added at its end,
which reads back what the browser laid out: each table cell's verdict, its
rendered text and its box, each chart's box, and the page's width. Then
checks, against BOARD_DIR/board.csv (the board's own cells, which
test_board.sh has checked against the participants' files):
- every cell of the CSV is on the page, in its exercise's table, its
  participant's row and its rung's column, with the same verdict, its label
  as the text shown, and where it is timed against the solution the same
  ratio; and the page shows no verdict the CSV has not;
- nothing is wider than the screen: no sideways scrolling, no table or chart
  past 1920 pixels, no cell whose text spills out of it.
Prints one line per check ("ok: ..." or "FAILED: ..."); exit 1 if any
failed, 77 (skipped) where there is no Chromium.
"""
import csv
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "reports"))
from ladder_board import LABELS  # noqa: E402  (the board's own words for each verdict)

WIDTH, HEIGHT = 1920, 1080

# Run by the browser once the page is laid out; what it reads goes into one
# <pre>, which --dump-dom prints with the rest of the page.
MEASURE = """
<script>
(function () {
  const box = (el) => { const r = el.getBoundingClientRect(); return {left: r.left, right: r.right, width: r.width, height: r.height}; };
  const tables = [];
  for (const table of document.querySelectorAll("table")) {
    const heading = table.previousElementSibling;
    const rows = Array.from(table.rows);
    const rungs = Array.from(rows[0].cells).slice(1).map((th) => th.innerText.trim());
    const cells = [];
    for (const row of rows.slice(1)) {
      const participant = row.cells[0].innerText.trim();
      Array.from(row.cells).slice(1).forEach((td, i) => {
        if (!td.dataset.verdict) return;
        cells.push({participant: participant, rung: rungs[i], verdict: td.dataset.verdict,
                    text: td.innerText.replace(/\\s+/g, " ").trim(), box: box(td),
                    spills: td.scrollWidth > td.clientWidth + 1});
      });
    }
    tables.push({exercise: heading ? heading.id : "", box: box(table), cells: cells});
  }
  const charts = Array.from(document.querySelectorAll("svg")).map((svg) => ({label: svg.getAttribute("aria-label"), box: box(svg)}));
  const out = document.createElement("pre");
  out.id = "ladder-measure";
  out.textContent = JSON.stringify({innerWidth: window.innerWidth, scrollWidth: document.documentElement.scrollWidth,
                                    tables: tables, charts: charts});
  document.body.appendChild(out);
})();
</script>
"""


def chromium():
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def browser(command_line, work):
    flags = ["--headless", "--disable-gpu", "--hide-scrollbars", "--no-first-run", f"--user-data-dir={work}/profile",
             f"--window-size={WIDTH},{HEIGHT}", "--virtual-time-budget=5000"]
    if os.geteuid() == 0:
        flags.append("--no-sandbox")  # Chromium's sandbox refuses to run as root
    return subprocess.run([command_line[0]] + flags + command_line[1:], capture_output=True, text=True, timeout=120)


def main():
    board_dir = Path(sys.argv[1])
    screenshot = sys.argv[2] if len(sys.argv) > 2 else None
    program = chromium()
    if program is None:
        print("skipped: no Chromium (Debian: apt-get install chromium, or set CHROMIUM)")
        sys.exit(77)
    failures = []

    def check(what, ok, detail=""):
        print(f"ok: {what}" if ok else f"FAILED: {what}" + (f": {detail}" if detail else ""))
        if not ok:
            failures.append(what)

    with tempfile.TemporaryDirectory() as work:
        page = Path(work) / "board.html"
        page.write_text((board_dir / "board.html").read_text().replace("</body>", MEASURE + "</body>"))
        shown = browser([program, "--dump-dom", page.as_uri()], work)
        found = re.search(r'<pre id="ladder-measure">(.*?)</pre>', shown.stdout, re.S)
        if not found:
            print(f"FAILED: Chromium laid out no page (exit {shown.returncode}): {shown.stderr[-2000:]}")
            sys.exit(1)
        measured = json.loads(html.unescape(found.group(1)))
        if screenshot:
            browser([program, f"--screenshot={Path(screenshot).resolve()}", (board_dir / "board.html").resolve().as_uri()], work)

    print(f"Chromium {subprocess.run([program, '--version'], capture_output=True, text=True).stdout.strip()},"
          f" {measured['innerWidth']} pixels wide: {len(measured['tables'])} tables,"
          f" {sum(len(t['cells']) for t in measured['tables'])} cells, {len(measured['charts'])} charts")
    check("the window is the projector's width", measured["innerWidth"] == WIDTH, str(measured["innerWidth"]))

    def shows_ratio(text, ratio):
        """Whether the cell says the CSV's ratio to the solution. The page rounds the full ratio to two
        places, the CSV keeps four digits: 1.0254 is 1.03 there and 1.025 here, so the two may differ
        by a rounding step."""
        shown = re.search(r"([0-9.]+)x the solution", text)
        return shown is not None and abs(float(shown.group(1)) - ratio) <= 0.0051

    page_cells = {(t["exercise"], c["participant"], c["rung"]): c for t in measured["tables"] for c in t["cells"]}
    rows = list(csv.DictReader(open(board_dir / "board.csv")))
    wrong = []
    for row in rows:
        cell = page_cells.get((row["exercise"], row["participant"], row["rung"]))
        if cell is None:
            wrong.append(f"{row['participant']}'s {row['exercise']} {row['rung']}: not on the page")
            continue
        if cell["verdict"] != row["verdict"] or not cell["text"].startswith(LABELS[row["verdict"]]):
            wrong.append(f"{row['participant']}'s {row['exercise']} {row['rung']}: the page shows {cell['verdict']}"
                         f" ({cell['text'][:60]!r}), the CSV {row['verdict']}")
        elif row["vs_solution"] and not shows_ratio(cell["text"], float(row["vs_solution"])):
            wrong.append(f"{row['participant']}'s {row['exercise']} {row['rung']}: the page says {cell['text']!r},"
                         f" the CSV {float(row['vs_solution']):.4g}x the solution")
    extra = len(page_cells) - sum(1 for row in rows if (row["exercise"], row["participant"], row["rung"]) in page_cells)
    check(f"each of the CSV's {len(rows)} cells is on the page, with its verdict and time", not wrong,
          "; ".join(wrong[:5]))
    check("and the page shows no cell the CSV has not", extra == 0, f"{extra} more")

    check("no sideways scrolling at 1920 pixels", measured["scrollWidth"] <= WIDTH, f"the page is {measured['scrollWidth']} wide")
    too_wide = [t["exercise"] for t in measured["tables"] if t["box"]["right"] > WIDTH]
    too_wide += [c["label"] for c in measured["charts"] if c["box"]["right"] > WIDTH]
    check("every table and chart within the screen", not too_wide, ", ".join(too_wide))
    spilling = [f"{key[1]}'s {key[0]} {key[2]}" for key, cell in page_cells.items() if cell["spills"]]
    check("no cell's text spills out of it", not spilling, ", ".join(spilling[:5]))
    empty = [f"{key[1]}'s {key[0]} {key[2]}" for key, cell in page_cells.items()
             if cell["box"]["width"] < 20 or cell["box"]["height"] < 10]
    check("every cell is drawn, none squashed", not empty, ", ".join(empty[:5]))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
