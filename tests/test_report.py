#!/usr/bin/env python3
"""`ladder report` renders a committed results file and a fresh run into
valid PNG, SVG and HTML, with tables whose numbers equal the JSON's, and
marks skipped rungs instead of dropping them; its charts draw the peers that
ran, keep a column for those that did not, keep every value label inside its
panel and star the fastest rung, and a chart with nothing to compare is not
drawn; its slides are 1920 x 1080. Every report opens with its contents, and
a sweep over ranks with its scaling."""
import csv
import html
import json
import math
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser
from pathlib import Path

try:
    import matplotlib  # noqa: F401
except ImportError:
    print("skipped: matplotlib is not installed for " + sys.executable)
    sys.exit(77)

ladder, fixture = sys.argv[1], sys.argv[2]
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAILED:", what)


def report(results_path, out):
    run = subprocess.run([ladder, "report", str(results_path), "--out", str(out)], capture_output=True, text=True)
    check(run.returncode == 0, f"ladder report {results_path}: exit {run.returncode}: {run.stderr}")


def run_peers(results_path, *options):
    """reports/peers.py over a results file, as a user runs it: its peers join the file."""
    return subprocess.run([sys.executable, str(Path(__file__).parent.parent / "reports" / "peers.py"),
                           str(results_path), "--ladder", ladder, *options], capture_output=True, text=True)


def run_briefly_with_peers(out, *arguments):
    """`ladder run ARGUMENTS` at the tiny size, briefly timed, into `out`, then its peers into the same file;
    each step checked to succeed."""
    run = subprocess.run([ladder, "run", *arguments, "--size", "tiny", "--min-time", "0.005", "--repetitions", "3",
                          "--out", str(out)], capture_output=True, text=True)
    check(run.returncode == 0, f"ladder run {' '.join(arguments)}: {run.stderr}")
    peers = run_peers(out, "--min-time", "0.01")
    check(peers.returncode == 0, f"peers.py {' '.join(arguments)}: {peers.stderr}")
    return peers


def json_rows(results):
    for entry in results["results"]:
        for row in entry["rungs"]:
            yield entry, row
        for peer in entry.get("peers", []):
            yield entry, dict(peer, rung=f"peer: {peer['name']}")


def png_size(path):
    """Width and height from a PNG's IHDR chunk, which always comes first."""
    header = path.read_bytes()[:24]
    return int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")


def check_directory(results, out):
    charts = sorted(out.glob("*.png"))
    check(len(charts) >= 2, f"{out}: expected a speed-up chart and the overview, found {len(charts)} PNGs")
    for png in charts:
        check(png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f"{png.name} is not a PNG")
        svg = png.with_suffix(".svg")
        check(svg.exists(), f"{svg.name} missing")
        check(ElementTree.parse(svg).getroot().tag.endswith("svg"), f"{svg.name} is not SVG")
    page = (out / "report.html").read_text()
    HTMLParser().feed(page)  # raises on markup it cannot read
    check(page.count("<svg") == len(charts), "report.html should hold every chart inline")
    check('src="http' not in page and "<link" not in page, "report.html must not need the network")
    # For a projector: charts first, each under a heading in words, each run's table after its chart.
    first_chart, first_table = page.find("<svg"), page.find("<table>")
    check(0 <= first_chart < first_table, "report.html should open with charts, before any table")
    check("-speedup</h2>" not in page and "-t16" not in page.split("<svg")[0], "chart headings should be words")
    for entry in results["results"]:
        title = entry["exercise"] + " (" + entry["size"] + ":"
        at = page.find("<h2>" + title)
        check(at >= 0 and page.find("<svg", at) < page.find("<table>", at),
              f"report.html: {title}... should have its chart, then its table")
        # The chart itself names each peer that ran and marks the fastest rung (matplotlib keeps every
        # text of an SVG as a comment beside its glyphs).
        chart = page[at:page.find("<table>", at)]
        for peer in entry.get("peers", []):
            if peer["status"] == "ok" and peer["timings"]["compute"]["median_s"] > 0:
                check("peer: " + peer["name"].split()[0] in chart, f"{title}... chart should draw {peer['name']}")
        if any(row["status"] == "ok" for row in entry["rungs"]):
            check("(fastest)" in chart, f"{title}... chart should mark its fastest rung")
    # One slide per exercise run, at a projector's 1920 x 1080.
    slides = sorted((out / "slides").glob("*.png"))
    check(len(slides) == len(results["results"]), f"{len(slides)} slides for {len(results['results'])} exercise runs")
    for slide in slides:
        check(slide.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png_size(slide) == (1920, 1080),
              f"{slide.name}: {png_size(slide)}, not a 1920 x 1080 PNG")

    # The CSV holds every row, and its numbers are the JSON's exactly.
    with open(out / "timings.csv") as handle:
        table = list(csv.DictReader(handle))
    expected = list(json_rows(results))
    check(len(table) == len(expected), f"timings.csv has {len(table)} rows, the JSON {len(expected)}")
    for line, (entry, row) in zip(table, expected):
        check(line["rung"] == row["rung"] and line["status"] == row["status"], f"row order {line['rung']}")
        if row["status"] != "ok":
            check(line["compute_median_s"] == "", f"{row['rung']} is {row['status']}: it has no time")
            continue
        if row["rung"].startswith("peer: "):
            check(float(line["compute_median_s"]) == row["timings"]["compute"]["median_s"], f"{row['rung']} median")
            continue
        t = row["timings"]
        pairs = [("compute_median_s", t["compute"]["median_s"]), ("transfer_median_s", t["transfer"]["median_s"]),
                 ("upload_median_s", t["upload"]["median_s"]),
                 ("speedup_vs_naive_compute", t["speedup"]["vs_naive"]["compute"]),
                 ("fraction_of_ceiling_compute", t["fraction_of_ceiling"]["compute"])]
        for column, value in pairs:
            got = line[column]
            check((got == "" and value is None) or (value is not None and float(got) == value),
                  f"{row['rung']} {column}: CSV {got} != JSON {value}")
    markdown = (out / "tables.md").read_text()
    for entry, row in expected:
        check(f"| {row['rung']} |" in markdown, f"tables.md lacks the row of {row['rung']}")
        if row["status"] != "ok":
            check(f"**{row['status']}**" in markdown, f"tables.md should mark {row['rung']} as {row['status']}")


with tempfile.TemporaryDirectory() as directory:
    d = Path(directory)
    # A committed H100 run: every rung ok.
    report(fixture, d / "h100")
    check_directory(json.loads(Path(fixture).read_text()), d / "h100")

    # A fresh run here, with a sweep; rungs that cannot run here are skipped and must be marked.
    fresh = d / "fresh.json"
    # Peers timed on the same inputs join the file, and the report shows them.
    peers = run_briefly_with_peers(fresh, "vector_add", "--sweep", "n=1000,100000")
    with_peers = json.loads(fresh.read_text())
    # A skipped peer is said, with its reason, where run.sh's user sees it: as it is skipped and once at the end.
    skipped = {(p["name"], p["reason"]) for e in with_peers["results"] for p in e["peers"] if p["status"] == "skipped"}
    check(all(f"skipped: {reason}" in peers.stdout and f"{reason}: " in peers.stdout.split("peers skipped:")[-1]
              for _, reason in skipped), f"peers.py names the peers it skipped and why: {peers.stdout}")
    # A copy of reports/ without solutions/ beside it (how a reference run once lost its peers) says so and
    # stops, instead of timing nothing in silence.
    alone = d / "alone" / "reports"
    shutil.copytree(Path(__file__).parent.parent / "reports", alone, ignore=shutil.ignore_patterns("runs"))
    lost = subprocess.run([sys.executable, str(alone / "peers.py"), str(fresh), "--ladder", ladder],
                          capture_output=True, text=True)
    check(lost.returncode == 2 and "no peers found" in lost.stderr,
          f"peers.py without solutions/: exit {lost.returncode}, {lost.stderr!r}")
    check(all(e["peers"][0]["status"] == "ok" for e in with_peers["results"]), "the NumPy peer should run and match")
    report(fresh, d / "fresh")
    check_directory(with_peers, d / "fresh")
    check("peer: numpy" in (d / "fresh" / "tables.md").read_text(), "tables.md should show the peers")
    check(any((d / "fresh").glob("scaling-vector_add-tiny-n.png")), "the sweep over n should give a scaling chart")

    # A row judged against the FP32 rate (convolution's CUDA rungs) says so beside its fraction,
    # and a GPU row gives its transfer-inclusive time against the PCIe link's.
    fp32 = json.loads(Path(fixture).read_text())
    row = next(r for e in fp32["results"] for r in e["rungs"] if r["status"] == "ok" and r["backend"] == "cuda")
    row["timings"]["fraction_of_ceiling"].update(ceiling="device FP32 rate", ceiling_operations_per_s=5e13,
                                                 ceiling_bytes_per_s=0, compute=0.6, transfer=0.94)
    (d / "fp32.json").write_text(json.dumps(fp32))
    report(d / "fp32.json", d / "fp32")
    check("| 60 % of FP32 / 94 % of PCIe |" in (d / "fp32" / "tables.md").read_text(),
          "tables.md should mark a fraction of the FP32 rate, then of the PCIe link")

    # A CPU row judged against the host probe at its own working set says which.
    cached = json.loads(Path(fixture).read_text())
    row = next(r for e in cached["results"] for r in e["rungs"] if r["status"] == "ok" and r["backend"] == "openmp")
    row["timings"]["fraction_of_ceiling"].update(compute=0.79, ceiling_bytes_per_s=2e11, working_set_bytes=3 * 2**26)
    (d / "cached.json").write_text(json.dumps(cached))
    report(d / "cached.json", d / "cached")
    check("| 79 % at 192 MiB |" in (d / "cached" / "tables.md").read_text(),
          "tables.md should name the working set a host row's ceiling was measured at")

    # The time budget holds a slow peer to fewer repetitions (at least three), as it does a slow rung.
    budgeted = d / "budgeted.json"
    budgeted.write_text(fresh.read_text())
    peers = run_peers(budgeted, "--min-time", "1", "--time-budget", "1e-9")
    check(peers.returncode == 0, f"peers.py --time-budget: {peers.stderr}")
    counts = [p["timings"]["compute"]["repetitions"] for e in json.loads(budgeted.read_text())["results"]
              for p in e["peers"] if p["status"] == "ok"]
    check(counts and all(c == 3 for c in counts), f"three repetitions each under a tiny budget, not {counts}")
    sys.path.insert(0, str(Path(__file__).parent.parent / "reports"))
    from peers import run_policy, run_time_budget
    from peer_tools import measure, median_interval
    # One timing policy: the peers follow the run's recorded policy, and `ladder pace` (the harness's own
    # rule) decides their repetitions: measure() returns what it decided, with its statistics.
    recorded = json.loads(fresh.read_text())
    check(run_policy(recorded)["min_repetitions"] == recorded["context"]["timing_policy"]["min_repetitions"],
          "the peers read the run's timing policy")
    policy = {"min_time_s": 0, "min_repetitions": 5, "max_repetitions": 1000, "noise_target": 0.01,
              "time_budget_s": 60}
    steady = measure(lambda: 1e-3, policy, ladder)
    check(steady["samples_s"] == [1e-3] * 5 and steady["repetitions"] == 5 and steady["median_s"] == 1e-3,
          f"a steady peer stops after its first batch of 5, not {steady['samples_s']}")
    answers = [1e-3 * (1 + (i % 7) / 3) for i in range(100)]
    noise = iter(answers)
    noisy = measure(lambda: next(noise), policy, ladder)
    check(noisy["samples_s"] == answers[1:21], f"a noisy peer gets four batches of 5 after the pilot, not {noisy}")
    paced = subprocess.run([ladder, "pace", "--policy", json.dumps(policy)], capture_output=True, text=True,
                           input="".join(f"{seconds!r}\n" for seconds in answers))
    lines = paced.stdout.splitlines()
    check(paced.returncode == 0 and lines[:21] == ["sample"] * 21 and lines[21].startswith("done ")
          and noisy == json.loads(lines[21][len("done "):]),
          f"measure() returns what `ladder pace` decides for the same answers: {paced.stdout[-300:]} {paced.stderr}")
    try:
        measure(lambda: 1e-3, dict(policy, noise_target=-1), ladder)
        check(False, "a bad policy should raise")
    except RuntimeError as error:
        check("`ladder pace`" in str(error) and "noise_target" in str(error),
              f"a bad policy's error names ladder pace and what it said: {error}")
    try:
        measure(lambda: 1e-3, policy, sys.executable)  # not ladder: `python pace` fails at once
        check(False, "a child that is not ladder pace should raise")
    except RuntimeError as error:
        check("`ladder pace`" in str(error) and "pace" in str(error).split("said:")[-1],
              f"a failed child's error names ladder pace and what it printed: {error}")
    chatty = d / "chatty"  # a child that answers otherwise
    chatty.write_text("#!/bin/sh\necho 'progress: 10 %'\n")
    chatty.chmod(0o755)
    try:
        measure(lambda: 1e-3, policy, str(chatty))
        check(False, "a child that prints garbage should raise")
    except RuntimeError as error:
        check("`ladder pace`" in str(error) and "progress: 10 %" in str(error),
              f"garbage from the child is named in the error: {error}")
    check(abs(median_interval([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) - 8 / 11) < 1e-12,
          "pooled replicates' median interval as the harness computes it: (x[9] - x[1]) / (2 x 5.5) for 10 samples")
    check(run_time_budget({"context": {"command_line": "ladder run --size large --time-budget 10"}}) == 10,
          "the peers take the run's --time-budget")
    check(run_time_budget({"context": {"command_line": "ladder run"}}) == 60, "else ladder run's default, 60 s")
    check(json.loads(fresh.read_text())["context"]["timing_policy"]["time_budget_s"] == 60,
          "a run records its time budget in its context")
    check(run_time_budget({"context": {"command_line": "ladder run --time-budget 10",
                                       "timing_policy": {"time_budget_s": 4.5}}}) == 4.5,
          "the recorded time budget comes first")

    # primesieve, where its library is installed: the count, and the flags by the library's route,
    # both checked against the serial rung's flags.
    import ctypes.util
    primes = d / "primes.json"
    run_briefly_with_peers(primes, "primes", "--variants", "serial")
    rows = {p["name"]: p for p in json.loads(primes.read_text())["results"][0]["peers"]}
    check(len(rows) == 2 and all(n.startswith("primesieve") for n in rows), f"two primesieve peers: {list(rows)}")
    installed = ctypes.util.find_library("primesieve") is not None
    for name, row in rows.items():
        want = "ok" if installed else "skipped"
        check(row["status"] == want, f"{name}: {row['status']}, expected {want} ({row.get('check') or row.get('reason')})")

    # The honest column: every ok rung against the fastest CPU entry of its run, rung or peer.
    sys.path.insert(0, str(Path(__file__).parent.parent / "reports"))
    from ladder_results import add_vs_best_cpu, best_cpu, read_results_text
    for entry in with_peers["results"]:
        cpu = [r["timings"]["compute"]["median_s"] for r in entry["rungs"]
               if r["status"] == "ok" and r["device_kind"] == "cpu"]
        cpu += [p["timings"]["compute"]["median_s"] for p in entry["peers"] if p["status"] == "ok" and p["device"] == "cpu"]
        check(best_cpu(entry)["compute_s"] == min(cpu), "best CPU is the fastest CPU rung or peer")
        zero = json.loads(json.dumps(entry))
        zero["peers"][0]["timings"]["compute"]["median_s"] = 0.0
        check(best_cpu(zero)["compute_s"] > 0, "a time below its timer's resolution (0) is never the best CPU entry")
    add_vs_best_cpu(with_peers)
    fastest = best_cpu(with_peers["results"][0])
    for row in with_peers["results"][0]["rungs"]:
        if row["status"] == "ok":
            want = fastest["compute_s"] / row["timings"]["compute"]["median_s"]
            check(abs(row["timings"]["speedup"]["vs_best_cpu"]["compute"] - want) < 1e-12, f"{row['rung']} vs best CPU")
    check("vs best CPU" in (d / "fresh" / "tables.md").read_text(), "tables.md should have the vs best CPU column")

    # The charts, drawn here and read back: peers as bars of their own colour, only those that ran; the
    # fastest rung starred and bold, wherever it is; slides in fonts a room can read.
    import matplotlib.colors
    import matplotlib.text
    import report_charts
    import report_overview
    import report_scaling
    import report_slides
    import report_tables

    def peer_bars(fig):
        peer = matplotlib.colors.to_rgba(report_charts.KIND_COLOURS["peer"])
        return [bar for axis in fig.axes for bar in axis.patches if bar.get_facecolor() == peer]

    def starred(fig):
        return [label for label in fig.axes[0].get_xticklabels() if "★" in label.get_text()]

    def outside_the_panels(fig):
        """The value labels and status boxes that reach past their panel's frame (onto a tick or a title)."""
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        outside = []
        for axis in fig.axes:
            frame = axis.get_window_extent()
            for text in axis.texts:
                box = (text.get_bbox_patch() or text).get_window_extent(renderer)
                if box.y0 < frame.y0 - 0.5 or box.y1 > frame.y1 + 0.5:
                    outside.append(text.get_text())
        return outside

    def overlapping_texts(fig):
        """Pairs of a slide's labels (the values beside the bars, the notes, the rung and peer names) whose
        boxes overlap by more than a pixel: what a room could not read."""
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        axis = fig.axes[0]
        pairs = []
        for group in (list(axis.texts), [label for label in axis.get_yticklabels() if label.get_text()]):
            boxes = [(text.get_text(), text.get_window_extent(renderer)) for text in group]
            for i, (a, box_a) in enumerate(boxes):
                for b, box_b in boxes[i + 1:]:
                    if (min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0) > 1
                            and min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0) > 1):
                        pairs.append((a, b))
        return pairs

    # The overview's columns are the rungs that ran: on a machine without a GPU no column stands empty.
    h100 = json.loads(Path(fixture).read_text())
    columns = [label.get_text() for label in report_overview.overview_figure(h100).axes[0].get_xticklabels()]
    check("cuda" in columns, f"the H100 fixture's overview should have its cuda column: {columns}")
    no_gpu = json.loads(json.dumps(h100))
    for entry in no_gpu["results"]:
        for row in entry["rungs"]:
            if row["rung"].startswith("cuda"):
                row.update(status="skipped", reason="no NVIDIA GPU on this machine")
                row.pop("timings", None)
    columns = [label.get_text() for label in report_overview.overview_figure(no_gpu).axes[0].get_xticklabels()]
    check(columns and not any(name.startswith("cuda") for name in columns) and "naive" in columns,
          f"the overview of a run without CUDA rungs should have no CUDA column: {columns}")
    report_charts.plt.close("all")

    entry = json.loads(json.dumps(with_peers["results"][0]))
    ran = [peer for peer in entry["peers"] if peer["status"] == "ok"]  # CuPy is skipped without a GPU
    figure = report_charts.speedup_figure(entry)
    panels = len(figure.axes)
    check(len(peer_bars(figure)) == panels * len(ran), f"a bar per peer that ran, per panel: {len(peer_bars(figure))}")
    names = [label.get_text() for label in figure.axes[0].get_xticklabels()]
    check(any(name.startswith("peer: numpy") for name in names), f"the NumPy peer is named under its bar: {names}")
    ok = [row for row in entry["rungs"] if row["status"] == "ok"]
    fastest = min(ok, key=lambda row: row["timings"]["compute"]["median_s"])
    check([label.get_text() for label in starred(figure)] == [f"★ {fastest['rung']} (fastest)"]
          and starred(figure)[0].get_fontweight() == "bold", f"the fastest rung, {fastest['rung']}, starred in bold")
    report_charts.plt.close(figure)
    # Make the slowest rung the fastest: the star moves with it. A peer that failed is not drawn.
    slowest = max(ok, key=lambda row: row["timings"]["compute"]["median_s"])
    slowest["timings"]["compute"]["median_s"] = fastest["timings"]["compute"]["median_s"] / 2
    ran[0]["status"] = "failed"
    figure = report_charts.speedup_figure(entry)
    check([label.get_text() for label in starred(figure)] == [f"★ {slowest['rung']} (fastest)"],
          f"the star should move to {slowest['rung']}")
    check(len(peer_bars(figure)) == panels * (len(ran) - 1), "a failed peer is not drawn")
    names = [label.get_text() for label in figure.axes[0].get_xticklabels()]
    check(report_charts.peer_label(ran[0]["name"]) in names
          and any(text.get_text() == "failed" for text in figure.axes[0].texts),
          "a failed peer keeps its column, marked as failed")
    check(not outside_the_panels(figure), f"labels past a panel's frame: {outside_the_panels(figure)}")
    report_charts.plt.close(figure)
    # Every chart of the committed runs (the fixture, the one-GPU reference run's whole suite at both sizes,
    # the Python rungs among the C++ ones): each value label and status box inside its panel, however many
    # decades the panel spans. (Found by pattern, so that replacing the run does not leave this test reading a
    # removed file.)
    runs = Path(__file__).parent.parent / "reports" / "runs"
    references = sorted(runs.glob("*-h[0-9]00/results-workshop.json.gz")) + sorted(
        runs.glob("*-h[0-9]00/large/results-large.json.gz"))
    check(bool(references), "no one-GPU reference run with workshop results under reports/runs")
    for path in (Path(fixture), *references):
        committed = json.loads(read_results_text(path))
        add_vs_best_cpu(committed)
        for entry in committed["results"]:
            figure = report_charts.speedup_figure(entry)
            check(not outside_the_panels(figure), f"{path.name}: {entry['exercise']}: labels past a panel's frame: "
                  f"{outside_the_panels(figure)}")
            report_charts.plt.close(figure)
            # Its slide, twenty rows where the Python rungs and the peers are beside the C++ ones: every label
            # readable, none over another.
            slide = report_slides.slide_figure(entry)
            overlapping = overlapping_texts(slide)  # drawn once: the check and its message share it
            check(not overlapping, f"{path.name}: {entry['exercise']}: slide labels over one another: {overlapping[:3]}")
            report_charts.plt.close(slide)
    slide = report_slides.slide_figure(with_peers["results"][0])
    small = [(t.get_text(), t.get_fontsize()) for t in slide.findobj(matplotlib.text.Text)
             if t.get_text().strip() and t.get_fontsize() < 14]
    check(not small, f"slide text below 14 pt: {small[:5]}")
    check(len(peer_bars(slide)) == len(ran), "the slide draws the peers that ran")
    check(any("fastest" in t.get_text() for t in slide.findobj(matplotlib.text.Text)), "the slide marks the fastest")
    report_charts.plt.close(slide)
    # A peer recorded at 0 (an earlier run's tool timed to the millisecond) reads as below resolution.
    zero = json.loads(json.dumps(with_peers))
    zero["results"][0]["peers"][0]["timings"]["compute"]["median_s"] = 0.0
    table = report_tables.markdown_tables(zero, report_tables.table_rows(zero))
    peer_line = next(line for line in table.splitlines() if zero["results"][0]["peers"][0]["name"] in line)
    check("below its timer's resolution" in peer_line and "0 ns" not in peer_line, f"a zero peer time: {peer_line}")
    check("Best CPU entry:" in (d / "fresh" / "tables.md").read_text(), "and name the best CPU entry of each run")

    # A panel only against a baseline that something is compared with: without naive, no "against naive".
    entry = json.loads(json.dumps(with_peers["results"][0]))
    for row in entry["rungs"]:
        if row["rung"] == "naive":
            row.update(status="skipped", reason="left out")
            row.pop("timings")
        elif row["status"] == "ok":
            row["timings"]["speedup"]["vs_naive"] = {"compute": None, "transfer": None}
    figure = report_charts.speedup_figure(entry)
    titles = [axis.get_title() for axis in figure.axes]
    check(len(titles) == panels - 1 and not any("naive" in title for title in titles),
          f"without naive the chart has no panel against it: {titles}")
    report_charts.plt.close(figure)

    # A sweep over ranks leads with what it is for: a contents list at the top of both reports, then its scaling
    # and the model's table, then each launch's section. A sweep of cuda_nccl alone has no naive, serial or CPU
    # entry: no speed-up chart, and one line saying why. (A committed sweep, found by pattern; one exercise.)
    sweeps = sorted(runs.glob("*-scaling/results-*.json.gz"))
    check(bool(sweeps), "no sweep over ranks under reports/runs")
    sweep = json.loads(read_results_text(sweeps[-1]))
    sweep["results"] = [e for e in sweep["results"] if e["exercise"] == sweep["results"][0]["exercise"]]
    check(len({e.get("ranks", 1) for e in sweep["results"]}) > 1 and
          all(row["rung"].startswith("cuda_nccl") for e in sweep["results"] for row in e["rungs"]),
          f"{sweeps[-1]}: expected a sweep over ranks of cuda_nccl rungs alone")
    (d / "sweep.json").write_text(json.dumps(sweep))
    report(d / "sweep.json", d / "sweep")
    entries = [report_tables.run_title(e) for e in sweep["results"]]
    scaling = f"{sweep['results'][0]['exercise']} ({sweep['results'][0]['size']}): scaling over MPI ranks"
    markdown = (d / "sweep" / "tables.md").read_text().splitlines()
    headings = [line[3:] for line in markdown if line.startswith("## ")]
    check(headings == [scaling] + entries, f"tables.md: the scaling first, then each launch: {headings}")
    first = next((i for i, line in enumerate(markdown) if line.startswith("## ")), len(markdown))
    contents = [line for line in markdown[:first] if line.startswith("- [")]
    check([line[3:line.index("](#")] for line in contents] == headings,
          f"tables.md opens with a contents list of its sections: {contents}")
    anchors = [line[line.index("](#") + 3:-1] for line in contents]
    check(len(set(anchors)) == len(anchors) and all(" " not in anchor for anchor in anchors),
          f"each section its own anchor: {anchors}")
    page = (d / "sweep" / "report.html").read_text()
    HTMLParser().feed(page)
    at = [page.find(f"<h2>{html.escape(title)}</h2>") for title in [scaling] + entries]
    check(at[0] == page.find("<h2>") and all(i >= 0 for i in at) and at == sorted(at),
          "report.html: the scaling first, then each launch")
    listed = page[page.find("<nav>"):page.find("</nav>")]
    check(0 <= page.find("<nav>") < page.find("<svg") and listed.count("<li>") == len(headings)
          and all(page.count(f"id='{href}'") == 1 for href in re.findall(r"href='#([^']+)'", listed)),
          "report.html opens with a contents list linked to its sections")
    check(not list((d / "sweep").glob("*-speedup.*")) and page.count("<svg") == len(list((d / "sweep").glob("*.png"))),
          "no speed-up chart where nothing can be compared")
    check(page.count("<p>No speed-up chart: ") == len(entries), "each launch says in one line why it has no chart")
    check(all(report_charts.speedup_figure(e) is None for e in sweep["results"]), "speedup_figure draws nothing")

    # The model of scaling past the ranks measured: fitted to a probe made with a known latency and bandwidth,
    # it finds them again, and it predicts the efficiency that follows from them.
    alpha, beta = 2e-6, 1 / 10e9  # 2 us, 10 GB/s
    sizes = [4 * 8 ** k for k in range(9)]
    probes = [{"backend": "mpi", "ranks": p, "machines": 1,
               "exchange": [[b, alpha + beta * b] for b in sizes],
               "allreduce": [[b, 2 * math.ceil(math.log2(p)) * alpha + 2 * (p - 1) / p * beta * b] for b in sizes]}
              for p in (2, 4)]
    sys.path.insert(0, str(Path(report_charts.__file__).parent))
    import scaling_model
    fits = scaling_model.fit_network({"communication": probes})
    for operation in ("exchange", "allreduce"):
        got = fits["mpi"]["inside"][operation]
        check(abs(got[0] - alpha) < 1e-3 * alpha and abs(got[1] - beta) < 1e-3 * beta,
              f"the {operation} fit finds alpha {alpha}, beta {beta}, not {got}")
    check(scaling_model.fit_network({}) == {}, "a run without a probe of its network has no fit")
    # A halo of 1 MiB on 1 rank in 10 ms: at 64 ranks, 10 ms / 64 of compute plus one exchange.
    halo = {"rung": "mpi", "backend": "mpi", "status": "ok", "communication": [
        {"pattern": "exchange", "bytes": 1 << 20, "rounds": 1}], "timings": {"compute": {"median_s": 10e-3}}}
    model = report_scaling.predict([(1, {}, halo)], "strong", fits, [1, 64])
    t64 = 10e-3 / 64 + alpha + beta * (1 << 20)
    check(model[1][2] == 1.0 and abs(model[64][2] - 10e-3 / (64 * t64)) < 1e-9,
          f"predicted efficiency at 64 ranks {model[64][2]}, not {10e-3 / (64 * t64)}")
    # An allreduce of 24 B, 10 rounds, measured from 2 ranks on: its share of the 2-rank time is taken out first.
    clip = dict(halo, communication=[{"pattern": "allreduce", "bytes": 24, "rounds": 10}])
    c = lambda p: 10 * (2 * math.ceil(math.log2(p)) * alpha + 2 * (p - 1) / p * beta * 24)
    model = report_scaling.predict([(2, {}, clip)], "strong", fits, [512])
    t512 = (10e-3 - c(2)) * 2 / 512 + c(512)
    check(abs(model[512][2] - 2 * 10e-3 / (512 * t512)) < 1e-9, f"allreduce at 512 ranks: {model[512][2]}")
    # A rung that sends nothing scales perfectly; a run without a probe predicts nothing.
    alone = dict(halo, communication=[])
    check(report_scaling.predict([(1, {}, alone)], "strong", fits, [512])[512][2] == 1.0, "no messages: efficiency 1")
    check(report_scaling.predict([(1, {}, halo)], "strong", {}, [512]) is None, "no probe: no prediction")
    check(report_scaling.model_table("strong", {"mpi": [(1, {}, halo)]}, {})[0][0].startswith("No prediction"),
          "without a probe the report says so in one line")
    lines, checks = report_scaling.model_table("strong", {"mpi": [(1, {}, halo), (4, {}, halo)]}, fits)
    check(any("predicted at 512" in line for line in lines) and checks and checks[0][1] == 4,
          f"the model's table names its predictions and checks the largest count measured: {lines}")

    # Across nodes. With a machine file, 8 ranks at 4 a node are 2 nodes: the halo crosses between them at
    # the file's latency and bandwidth, while 4 ranks stay on the measured links.
    machine = scaling_model.read_machine_file(scaling_model.DEFAULT_MACHINE)
    nodes = scaling_model.fit_network({"communication": probes}, machine)["mpi"]
    per_node = machine["ranks_per_node"]["mpi"]
    far_alpha, far_bytes_per_s = (machine["between_nodes"]["mpi"]["exchange"][k] for k in ("latency_s", "bytes_per_s"))
    model = report_scaling.predict([(1, {}, halo)], "strong", {"mpi": nodes}, [per_node, 2 * per_node])
    near = 10e-3 / per_node + alpha + beta * (1 << 20)
    far = 10e-3 / (2 * per_node) + far_alpha + (1 << 20) / far_bytes_per_s
    check(abs(model[per_node][0] - near) < 1e-12 and abs(model[2 * per_node][0] - far) < 1e-12,
          f"one node's halo on the measured link, two nodes' on the machine file's: {model}")
    check(scaling_model.layout_text(nodes, 8 * per_node, "ranks") == f"{8 * per_node} ranks (8 nodes of {per_node})",
          "a prediction names its nodes")
    # A probe that spanned machines gives the links between them itself: 4 ranks on 2 machines, the exchange at
    # the far link's cost, the allreduce a reduce-scatter inside each machine, then 1/2 of it between them.
    far_alpha, far_beta = 9e-6, 1 / 20e9
    inside = lambda b: 2 * alpha + beta * b  # 2 ranks: 2 steps, share 1
    spread = [{"backend": "nccl", "ranks": 2, "machines": 1, "exchange": probes[0]["exchange"],
               "allreduce": probes[0]["allreduce"]},
              {"backend": "nccl", "ranks": 4, "machines": 2, "machine_of_rank": [0, 0, 1, 1],
               "exchange": [[b, far_alpha + far_beta * b] for b in sizes],
               "allreduce": [[b, inside(b) + 2 * far_alpha + far_beta * b / 2] for b in sizes]}]
    measured = scaling_model.fit_network({"communication": spread}, machine)["nccl"]
    check(measured["per_node"] == 2 and "fitted to 4 ranks on 2 machines" in measured["between_from"],
          f"the layout measured, not the machine file's: {measured['per_node']}, {measured['between_from']}")
    for operation in ("exchange", "allreduce"):
        got = measured["between"][operation]
        check(abs(got[0] - far_alpha) < 1e-3 * far_alpha and abs(got[1] - far_beta) < 1e-3 * far_beta,
              f"between machines, the {operation} fit finds alpha {far_alpha}, beta {far_beta}, not {got}")
    # A probe that timed a reduce prices a reduce inside a node by its own fit: through NCCL one latency whatever
    # the GPUs (its ring pipeline), where without that fit it was log2 p exchanges (2 at 4 GPUs). Between
    # nodes, the machine file having no reduce, the tree among the nodes takes the exchange's link.
    check("reduce" not in fits["mpi"]["inside"], "a probe without a reduce fits none")
    near_alpha, near_beta = 18e-6, 1 / 50e9
    timed = [dict(probe, backend="nccl", reduce=[[b, near_alpha + near_beta * b] for b in sizes]) for probe in probes]
    gpus = scaling_model.fit_network({"communication": timed}, machine)["nccl"]
    got = gpus["inside"]["reduce"]
    check(abs(got[0] - near_alpha) < 1e-3 * near_alpha and abs(got[1] - near_beta) < 1e-3 * near_beta,
          f"the NCCL reduce fit finds alpha {near_alpha}, beta {near_beta} flat in p, not {got}")
    counts = dict(halo, rung="cuda_nccl", communication=[{"pattern": "reduce", "bytes": 1024, "rounds": 1}])
    model = report_scaling.predict([(1, {}, counts)], "strong", {"nccl": gpus}, [4, 8])
    far = machine["between_nodes"]["nccl"]["exchange"]
    t4 = 10e-3 / 4 + near_alpha + near_beta * 1024
    t8 = 10e-3 / 8 + near_alpha + near_beta * 1024 + far["latency_s"] + 1024 / far["bytes_per_s"]
    check(abs(model[4][0] - t4) < 1e-12 and abs(model[8][0] - t8) < 1e-12,
          f"a reduce of 1 KiB: {t4} s on 4 GPUs (one node), {t8} s on 8 (a tree between 2 nodes), not {model}")
    check(any("reduce alpha 18 us" in line for line in report_scaling.network_text("nccl", gpus)),
          f"the report names the reduce's fit: {report_scaling.network_text('nccl', gpus)}")
    # Through MPI a binomial tree: log2 p steps, each of the whole message.
    tree = [dict(probe, reduce=[[b, math.ceil(math.log2(probe["ranks"])) * (alpha + beta * b)] for b in sizes])
            for probe in probes]
    got = scaling_model.fit_network({"communication": tree})["mpi"]["inside"]["reduce"]
    check(abs(got[0] - alpha) < 1e-3 * alpha and abs(got[1] - beta) < 1e-3 * beta,
          f"the MPI reduce fit finds alpha {alpha}, beta {beta} a step, not {got}")
    # A machine file that cannot be used: one message, exit 2.
    (d / "machine.json").write_text('{"name": "x", "source": "y", "ranks_per_node": {"mpi": 4, "nccl": 0}}')
    bad = subprocess.run([ladder, "report", str(d / "fresh.json"), "--out", str(d / "nodes"),
                          "--machine", str(d / "machine.json")], capture_output=True, text=True)
    check(bad.returncode == 2 and "machine.json" in bad.stderr and "adapters_per_node" in bad.stderr,
          f"a wrong machine file: {bad.returncode} {bad.stderr}")

    # Not a results file: one message, exit 2.
    (d / "other.json").write_text('{"hello": 1}')
    bad = subprocess.run([ladder, "report", str(d / "other.json")], capture_output=True, text=True)
    check(bad.returncode == 2 and "not a results file" in bad.stderr, f"bad input: {bad.returncode} {bad.stderr}")

print(f"{1 if not failures else 0} passed, {1 if failures else 0} failed")
sys.exit(1 if failures else 0)
