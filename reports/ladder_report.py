#!/usr/bin/env python3
"""ladder report: tables and charts from one `ladder run`'s results JSON.

    ladder report RESULTS.json [--out DIR]      (or python3 reports/ladder_report.py ...)

Writes into DIR (default: report/ beside RESULTS.json):
  timings.csv            every row: status, timing statistics, speed-ups, fraction of ceiling
  tables.md              the same as Markdown, one table per exercise run
  <run>-speedup.png/svg  per exercise run: speed-up against naive, serial and the best CPU entry, compute-only
                         and transfer-inclusive side by side, rungs in ladder order, log scale, the fastest
                         rung starred; then the library peers that ran, in their own colour;
                         skipped and failed rungs and peers (and a peer below its timer's resolution)
                         are marked, not dropped
  overview.png/svg       every exercise's ladder on one chart (compute-only speed-up over naive)
  overview-vs-best-cpu.png/svg   each exercise's fastest GPU rung against the fastest CPU entry of the
                         same run, rung or peer (where the run has GPU rungs)
  scaling-<ex>-<param>.png/svg   where the run holds a sweep (--sweep K=...): time against K per rung
  scaling-<ex>-<size>-ranks.png/svg   where the run holds a sweep over MPI ranks (--sweep ranks=..., --weak):
                         the distributed rungs' speed-up (strong) or efficiency T1/Tp (weak) against the
                         ranks, compute-only and transfer-inclusive, with the ideal line; its table in
                         tables.md (ranks, time, speed-up against the fewest ranks, parallel efficiency);
                         where the run measured its network (context.communication), a model's prediction
                         at 8, 64 and 512 ranks, dashed with hollow markers, and its table
  report.html            one self-contained page with all of the above (no network needed)
  slides/EXERCISE.png    per exercise run, one picture for a projector (1920 x 1080, fonts of 15 pt and
                         more): each rung's and each peer's time, the fastest starred. Always written, so that
                         `ladder report` needs no option for them.
"""
import argparse
import csv
import html
import math
import re
import sys
import textwrap
from pathlib import Path

import scaling_model
from ladder_results import add_vs_best_cpu, fail as fail_with, load_results
from scaling_model import PREDICTED_RANKS

PROGRAM = "ladder report"


def fail(message):
    fail_with(PROGRAM, message)


def load(path):
    return load_results(PROGRAM, path)

try:
    import matplotlib
except ImportError:
    print(f"ladder report: error: matplotlib is not installed for {sys.executable} "
          "(Debian: python3-matplotlib)", file=sys.stderr)
    sys.exit(2)
matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import ticker  # noqa: E402

STATUS_COLOURS = {"failed": "#c0392b", "skipped": "#7f8c8d", "not_implemented": "#7f8c8d"}
# Peers in purple, hatched: not the grey of the skipped marks, not a rung's blue or orange.
KIND_COLOURS = {"compute": "#2c7fb8", "transfer": "#f39c12", "peer": "#8e44ad"}
PEER_HATCH = "//"


def named_ranks(entry):
    """Whether an entry's name carries its MPI ranks: in a sweep over ranks, or on more than one."""
    return "scaling" in entry or entry.get("ranks", 1) > 1


def run_label(entry):
    """A short, file-name-safe name for one exercise run: exercise, size, parameters (and ranks)."""
    parameters = "".join(f"-{key}={value}" for key, value in sorted(entry["parameters"].items()))
    label = f"{entry['exercise']}-{entry['size']}{parameters}-t{entry.get('threads', 0)}"
    if named_ranks(entry):
        label += f"-r{entry.get('ranks', 1)}" + ("-weak" if entry.get("scaling") == "weak" else "")
    return re.sub(r"[^A-Za-z0-9_.=-]", "_", label)


def run_title(entry):
    parameters = ", ".join(f"{key}={value}" for key, value in entry["parameters"].items())
    ranks = entry.get("ranks", 1)
    ranks_text = f"; {ranks} MPI rank{'s' if ranks > 1 else ''}" if named_ranks(entry) else ""
    if entry.get("scaling") == "weak":
        ranks_text += f", weak scaling ({entry['scaled_parameter']} × ranks)"
    return f"{entry['exercise']} ({entry['size']}: {parameters}; {entry.get('threads', '?')} threads{ranks_text})"


def figure(row, *path):
    """row['timings'][path...] or None when the row has no timings (skipped, failed)."""
    value = row.get("timings")
    for key in path:
        if value is None:
            return None
        value = value.get(key)
    return value


def table_rows(results):
    rows = []
    for entry in results["results"]:
        for row in entry["rungs"]:
            rows.append({
                "exercise": entry["exercise"],
                "size": entry["size"],
                "parameters": " ".join(f"{k}={v}" for k, v in entry["parameters"].items()),
                "threads": entry.get("threads", ""),
                "ranks": entry.get("ranks", 1),
                "scaling": entry.get("scaling", ""),
                "rung": row["rung"],
                "backend": row["backend"],
                "status": row["status"],
                "reason": row.get("reason", ""),
                "device": row.get("device", ""),
                "device_kind": row.get("device_kind", ""),
                "compute_median_s": figure(row, "compute", "median_s"),
                "compute_min_s": figure(row, "compute", "min_s"),
                "compute_max_s": figure(row, "compute", "max_s"),
                "compute_cv": figure(row, "compute", "cv"),
                "transfer_median_s": figure(row, "transfer", "median_s"),
                "upload_median_s": figure(row, "upload", "median_s"),
                "download_median_s": figure(row, "download", "median_s"),
                "speedup_vs_naive_compute": figure(row, "speedup", "vs_naive", "compute"),
                "speedup_vs_naive_transfer": figure(row, "speedup", "vs_naive", "transfer"),
                "speedup_vs_serial_compute": figure(row, "speedup", "vs_serial", "compute"),
                "speedup_vs_serial_transfer": figure(row, "speedup", "vs_serial", "transfer"),
                "speedup_vs_best_cpu_compute": figure(row, "speedup", "vs_best_cpu", "compute"),
                "speedup_vs_best_cpu_transfer": figure(row, "speedup", "vs_best_cpu", "transfer"),
                "compute_replicate_spread": figure(row, "compute", "replicate_spread"),
                "transfer_replicate_spread": figure(row, "transfer", "replicate_spread"),
                "high_spread": row.get("high_spread", False),
                "fraction_of_ceiling_compute": figure(row, "fraction_of_ceiling", "compute"),
                "fraction_of_ceiling_transfer": figure(row, "fraction_of_ceiling", "transfer"),
                "ceiling": figure(row, "fraction_of_ceiling", "ceiling"),
                "ceiling_working_set_bytes": figure(row, "fraction_of_ceiling", "working_set_bytes"),
            })
        for peer in entry.get("peers", []):  # other tools on the same inputs (reports/peers.py)
            rows.append({key: None for key in rows[-1]} | {
                "exercise": entry["exercise"], "size": entry["size"], "parameters": rows[-1]["parameters"],
                "threads": entry.get("threads", ""), "ranks": entry.get("ranks", 1),
                "scaling": entry.get("scaling", ""), "rung": f"peer: {peer['name']}", "backend": "peer",
                "status": peer["status"], "reason": peer.get("reason", ""), "device": peer["device"],
                "compute_median_s": figure(peer, "compute", "median_s"),
                "compute_min_s": figure(peer, "compute", "min_s"),
                "compute_max_s": figure(peer, "compute", "max_s"),
                "compute_cv": figure(peer, "compute", "cv"),
                "compute_replicate_spread": figure(peer, "compute", "replicate_spread")})
    return rows


def write_csv(rows, path):
    with open(path, "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        for row in rows:
            # repr() keeps every digit, so the CSV equals the JSON exactly.
            writer.writerow({k: ("" if v is None else repr(v) if isinstance(v, float) else v) for k, v in row.items()})


def seconds(value):
    if value is None:
        return "-"
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value / 1e-9:.3g} ns"


def ratio(value):
    return "-" if value is None else f"{value:.3g}"


def percent(value):
    return "-" if value is None else f"{100 * value:.0f} %"


def spread(row):
    """Between replicates: the relative range of the replicate medians, compute / transfer; flagged when high."""
    compute, transfer = row.get("compute_replicate_spread"), row.get("transfer_replicate_spread")
    if compute is None:
        return "-"
    text = percent(compute) + ("" if transfer is None else " / " + percent(transfer))
    return text + (" (high)" if row.get("high_spread") else "")


def introduction(results):
    context = results["context"]
    load = context.get("readings", {}).get("load_average_before")
    return (f"Run {context['time']} on {context['host']['cpu_model']}"
            f" ({context['host_memory']} host memory"
            + (f"; load average {load[0]:.2f} on {context['host']['hardware_threads']} hardware threads as it started"
               if load else "") + "). Times are medians; min – max is the range of the samples;"
            " *replicates* is the spread between replicate runs ((max − min) / median of their medians, compute /"
            " transfer-inclusive; `ladder run --replicates N`), what a rerun on this machine would see;"
            " speed-ups are compute / transfer-inclusive; *vs best CPU* is against the fastest CPU entry of the"
            " same run, rung or peer; *of ceiling* is the compute-only time against the device's measured"
            " bandwidth (or FP32 rate), and for a GPU rung also its transfer-inclusive time against what its"
            " bytes need over PCIe at the pinned rates measured in the same run (*of PCIe*).")


def entry_table(entry, rows):
    """The markdown table of one exercise run (its rungs, then its peers), with its best CPU entry above."""
    best = entry.get("best_cpu")
    lines = []
    if best:
        lines += [f"Best CPU entry: {best['name']}, {seconds(best['compute_s'])}.", ""]
    lines += ["| rung | status | compute | min – max | replicates | transfer-incl. | upload | download "
              "| vs naive | vs serial | vs best CPU | of ceiling |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for row in (r for r in rows if r["exercise"] == entry["exercise"] and r["size"] == entry["size"]
                and r["parameters"] == " ".join(f"{k}={v}" for k, v in entry["parameters"].items())
                and r["threads"] == entry.get("threads", "") and r["ranks"] == entry.get("ranks", 1)
                and r["scaling"] == entry.get("scaling", "")):
        if row["status"] != "ok":
            lines.append(f"| {row['rung']} | **{row['status']}** | {row['reason']} | | | | | | | | | |")
            continue
        if row["backend"] == "peer" and not row["compute_median_s"]:
            # An earlier run's tool that timed itself in whole milliseconds: no figure, never "0".
            lines.append(f"| {row['rung']} | ok ({row['device']}) | below its timer's resolution | | | | | | | | | |")
            continue
        if row["backend"] == "peer":
            lines.append(f"| {row['rung']} | ok ({row['device']}) | {seconds(row['compute_median_s'])} "
                         f"| {seconds(row['compute_min_s'])} – {seconds(row['compute_max_s'])} | {spread(row)} "
                         "| | | | | | | |")
            continue
        copies = copies_data(row)
        lines.append(
            f"| {row['rung']} | ok | {seconds(row['compute_median_s'])} "
            f"| {seconds(row['compute_min_s'])} – {seconds(row['compute_max_s'])} | {spread(row)} "
            f"| {seconds(row['transfer_median_s'])} "
            f"| {seconds(row['upload_median_s']) if copies else '-'} "
            f"| {seconds(row['download_median_s']) if copies else '-'} "
            f"| {ratio(row['speedup_vs_naive_compute'])} / {ratio(row['speedup_vs_naive_transfer'])} "
            f"| {ratio(row['speedup_vs_serial_compute'])} / {ratio(row['speedup_vs_serial_transfer'])} "
            f"| {ratio(row['speedup_vs_best_cpu_compute'])} / {ratio(row['speedup_vs_best_cpu_transfer'])} "
            f"| {ceiling_cell(row)} |")
    return lines


def ceiling_cell(row):
    """The compute-only fraction of the row's ceiling; for a GPU rung the copies
    have a ceiling too, the PCIe link: its transfer-inclusive time against the
    time the bytes need over the link (pinned rates measured in the same run).
    A rung whose compute() makes the copies itself (cuda_streams) is measured
    by the second figure. A CPU row judged against the host probe at its own
    working set (faster there, the set being partly in the caches) names it."""
    text = percent(row["fraction_of_ceiling_compute"]) + (" of FP32" if row["ceiling"] in ("host FP32 rate", "device FP32 rate") else "")
    if row.get("ceiling_working_set_bytes"):
        text += f" at {row['ceiling_working_set_bytes'] / 2**20:.0f} MiB"
    transfer = row["fraction_of_ceiling_transfer"]
    if row["device_kind"] == "gpu" and transfer is not None:
        text += f" / {percent(transfer)} of PCIe"
    return text


def markdown_tables(results, rows, ranks_scaling=()):
    lines = ["# hpc-ladder results", "", introduction(results), ""]
    for entry in results["results"]:
        lines += [f"## {run_title(entry)}", ""] + entry_table(entry, rows) + [""]
    for _, title, table in ranks_scaling:
        lines += [f"## {title}", ""] + table + [""]
    return "\n".join(lines)


def plain_number(value, _position=None):
    """An axis label in plain digits, as the bars' labels: 100,000 and 0.0001, not 1e+05 and 1e-04."""
    if value >= 1e3:
        return f"{value:,.0f}"
    return f"{value:.12f}".rstrip("0").rstrip(".") if value < 1e-3 else f"{value:g}"


def log_axis(axis, which="y"):
    """Log scale labelled at 1, 2 and 5 of every decade (0.5, 1, 2, 5, 10, ...), not only at powers of ten;
    at powers of ten only where the axis spans more than three decades (labels would crowd)."""
    getattr(axis, f"set_{which}scale")("log")
    target = axis.yaxis if which == "y" else axis.xaxis
    low, high = (axis.get_ylim() if which == "y" else axis.get_xlim())
    wide = low > 0 and high / low > 1e3
    target.set_major_locator(ticker.LogLocator(base=10, subs=(1,) if wide else (1, 2, 5), numticks=20))
    # Plain digits (100,000, not 1e+05) as in the bars' labels.
    target.set_major_formatter(ticker.FuncFormatter(plain_number))
    target.set_minor_formatter(ticker.NullFormatter())


def save(fig, directory, stem, written):
    for suffix in ("png", "svg"):
        path = directory / f"{stem}.{suffix}"
        fig.savefig(path, dpi=120, bbox_inches="tight")
        written.append(path)
    plt.close(fig)


def peer_label(name):
    """A peer's name short enough for a tick label: no argument lists or descriptions, its thread count kept,
    on two lines."""
    threads = re.search(r"\((\d+) threads?\)", name)
    core = re.sub(r" (on|per) .*", "", re.sub(r"\([^)]*\)", "", name)).strip()
    # Whole words only: cupyx.scipy.signal.convolve2d stays on one line.
    return textwrap.fill("peer: " + core + (f", {threads.group(1)} thr." if threads else ""), 26,
                         break_long_words=False)


def drawn_peers(entry):
    """The peers a chart draws: those that ran and matched, with a time above the timer's resolution.
    The others stay in the table, with their reason."""
    return [peer for peer in entry.get("peers") or []
            if peer.get("status") == "ok" and peer["timings"]["compute"]["median_s"] > 0]


def fastest_rung(rungs):
    """The rung with the lowest compute-only median among those that ran and passed their check."""
    return min((row for row in rungs if row["status"] == "ok"), key=lambda row: figure(row, "compute", "median_s"),
               default=None)


def bar_label(axis, x, value, text, fontsize=9):
    """A rotated value label a few points past a bar's far end (above for a gain, below for a loss): an offset
    in points stays clear of the bar whatever the log axis's range."""
    up = value >= 1
    axis.annotate(text, (x, value), xytext=(0, 3 if up else -3), textcoords="offset points", rotation=90,
                  ha="center", va="bottom" if up else "top", fontsize=fontsize)


def speedup_text(value):
    """3 significant digits, in plain digits where they are readable: 44,200 rather than 4.42e+04."""
    if value >= 100:
        return f"{float(f'{value:.3g}'):,.0f}"
    return f"{value:.3g}" if value >= 0.01 else f"{value:.1e}"


def legend_below(fig, labels, fontsize):
    """The key to the bars' colours below the chart, never over a bar: compute, transfer and, where the chart
    draws peers, a third label for theirs."""
    handles = [plt.Rectangle((0, 0), 1, 1, facecolor=KIND_COLOURS[kind], edgecolor="white",
                             hatch=PEER_HATCH if kind == "peer" else None)
               for kind in ("compute", "transfer", "peer")[:len(labels)]]
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=fontsize, frameon=False)


def speedup_figure(entry):
    """One panel per baseline (naive, serial, the best CPU entry), stacked so that each is as wide as the page;
    per rung a compute and a transfer bar, then per library peer one compute-only bar in its own colour.
    Bars start at 1x and grow up for a gain, down for a loss, so that a bar's length is the speed-up whatever
    the axis's range. The fastest rung's label is starred and bold. Rungs and peers without a bar (skipped,
    failed, a peer's time below its timer's resolution) keep their column, marked in words."""
    rungs = entry["rungs"]
    best = entry.get("best_cpu")
    serial = next((row for row in rungs if row["rung"] == "serial" and row["status"] == "ok"), None)
    # The third panel only where it differs from the second: the best CPU entry is not the serial rung.
    best_is_serial = best and serial and best["name"] == "serial" and \
        best["end_to_end_s"] == serial["timings"]["transfer"]["median_s"]
    baselines = ("naive", "serial") + (("best_cpu",) if best and not best_is_serial else ())
    baseline_s = {name: figure(row, "compute", "median_s") for row in rungs if row["status"] == "ok"
                  for name in (row["rung"],)}
    baseline_s["best_cpu"] = best["compute_s"] if best else None
    drawn = drawn_peers(entry)
    # Every peer has a column: those that ran with a time a bar, the others their status in words.
    peers = [(peer_label(peer["name"]), peer["timings"]["compute"]["median_s"] if peer in drawn else None,
              peer["status"] if peer["status"] != "ok" else "below timer\nresolution")
             for peer in entry.get("peers") or []]
    fastest = fastest_rung(rungs)
    columns = len(rungs) + len(peers)
    width_in = max(10, 1.3 * columns + 3)
    # A wide figure is shrunk to the page's width: its panels grow taller with it, so that they are not squashed
    # into strips (some 420 pixels each on a 1920 x 1080 screen).
    panel_in = max(4.0, 0.3 * width_in)
    fig, axes = plt.subplots(len(baselines), 1, figsize=(width_in, panel_in * len(baselines)), squeeze=False)
    width = 0.38
    # The values as large on the page in a wide figure, which the page shrinks to its width, as in a narrower one.
    label_size = min(11.0, 9 * max(1.0, width_in / 13.4))
    ranges = []  # per panel: the lowest and highest bar, the longest label above and below the bars
    for axis, baseline in zip(axes[:, 0], baselines):
        values = [v for row in rungs for v in (figure(row, "speedup", f"vs_{baseline}", "compute"),
                                              figure(row, "speedup", f"vs_{baseline}", "transfer")) if v]
        base = baseline_s.get(baseline)
        values += [base / peer_s for _, peer_s, _ in peers if peer_s] if base else []
        labels_up, labels_down, boxes = [""], [""], [""]
        for i, row in enumerate(rungs):
            if row["status"] != "ok":
                boxes.append(status_box(axis, i, row["status"].replace("_", " "), STATUS_COLOURS[row["status"]]))
                continue
            for offset, kind in ((-width / 2, "compute"), (width / 2, "transfer")):
                value = figure(row, "speedup", f"vs_{baseline}", kind)
                if value is None:
                    axis.text(i + offset, 1.0, "n/a", rotation=90, ha="center", va="center", fontsize=8)
                    continue
                axis.bar(i + offset, value - 1.0, width=width, bottom=1.0, color=KIND_COLOURS[kind])
                text = speedup_text(value)
                bar_label(axis, i + offset, value, text, label_size)  # rotated: neighbours never overlap
                (labels_up if value >= 1 else labels_down).append(text)
        for j, (name, peer_s, status) in enumerate(peers):
            if not peer_s:
                boxes.append(status_box(axis, len(rungs) + j, status, STATUS_COLOURS.get(status, KIND_COLOURS["peer"])))
                continue
            if not base:
                continue
            value = base / peer_s
            axis.bar(len(rungs) + j, value - 1.0, width=width, bottom=1.0, facecolor=KIND_COLOURS["peer"],
                     edgecolor="white", hatch=PEER_HATCH)
            text = speedup_text(value)
            bar_label(axis, len(rungs) + j, value, text, label_size)
            (labels_up if value >= 1 else labels_down).append(text)
        ranges.append((min(values + [1.0]), max(values + [1.0]), max(map(len, labels_up)),
                       max(map(len, labels_down)), max(len(line) for text in boxes for line in text.split("\n"))))
        axis.axhline(1.0, color="black", linewidth=0.8)
        axis.set_xlim(-0.6, columns - 0.4)  # the last column's "skipped" box inside the frame
        # The fastest rung (compute-only) is starred: the answer to "which one wins?".
        labels = [("★ " + row["rung"] + " (fastest)" if row is fastest else row["rung"]) for row in rungs] + \
            [name for name, _, _ in peers]
        axis.set_xticks(range(len(labels)), labels, rotation=20, ha="right", fontsize=11)
        if fastest:  # bold as well, to stand out from across a room
            axis.get_xticklabels()[rungs.index(fastest)].set_fontweight("bold")
        title = {"naive": "against naive", "serial": "against serial" + (" (also the best CPU entry)" if best_is_serial
                                                                       else ""),
                 "best_cpu": f"against the best CPU entry ({best['name']})" if best else ""}[baseline]
        axis.set_title(title, fontsize=12)
        axis.set_ylabel("speed-up (×, log)")
        axis.grid(axis="y", which="major", alpha=0.3)
    legend_below(fig, ["compute-only", "transfer-inclusive (copies to and from the device included)"]
                 + (["a library peer on the same input (its own compute time)"] if peers else []), fontsize=11)
    fig.suptitle(textwrap.fill(run_title(entry), 100))  # long parameter lists wrap, not widen the figure
    for _ in range(2):  # the layout, then the value labels' room from it, then the layout again for the new ticks
        # The legend below the panels, never over a bar; a little room between the title and the first panel.
        fig.tight_layout(rect=(0, 0.04, 1, 1 - 0.1 / fig.get_figheight()))
        for axis, (low, high, up, down, box) in zip(axes[:, 0], ranges):
            room_for_labels(axis, low, high, up, down, box, label_size)
    return fig


def status_box(axis, x, text, colour):
    """A column without a bar: its status in words, in a dashed box across the 1x line."""
    axis.text(x, 1.0, text, rotation=90, ha="center", va="center", fontsize=9, color=colour,
              bbox={"facecolor": "white", "edgecolor": colour, "linestyle": "--"})
    return text


def room_for_labels(axis, low, high, up, down, box, fontsize):
    """The y range of a speed-up panel: the bars from `low` to `high`, and past them room for the rotated value
    labels (`up` and `down` characters long at most) in this panel's height, whatever its range in decades;
    at least 1.6 decades either side of the bars, and room for the status boxes across 1x (`box` characters)."""
    height_pt = axis.get_window_extent().height * 72 / axis.figure.dpi
    # A label's length in points: 3 points from the bar, digits about 0.65 em wide, a little more to stay clear
    # of the frame; as a share of the panel's height.
    share_up, share_down = (min(0.4, (6 + 0.65 * fontsize * n) / height_pt) if n else 0 for n in (up, down))
    share_box = min(0.4, (6 + 0.65 * 9 * box / 2) / height_pt) if box else 0  # half a box, from 1x
    span = math.log10(high / low)
    above = below = 1.6
    for _ in range(30):  # the decades past the bars, each enough for its labels in the total range
        total = span + above + below
        above = max(1.6, share_up * total, share_box * total - math.log10(high))
        below = max(1.6, share_down * total, share_box * total + math.log10(low))
    axis.set_ylim(low / 10 ** below, high * 10 ** above)
    log_axis(axis)


def speedup_chart(entry, directory, written):
    stem = f"{run_label(entry)}-speedup"
    save(speedup_figure(entry), directory, stem, written)
    return stem


def copies_data(row):
    """Whether a rung copies its inputs to a device and its outputs back: a host rung's upload and download are
    no-ops, not figures, and so are an openmp_target rung's on the host fallback."""
    if row["backend"] == "openmp_target":
        return row.get("device_kind") == "gpu"
    return row.get("device", "") != "" and row["backend"] in ("cuda", "opencl")


def exercise_words(exercise):
    return exercise.replace("_", " ").capitalize()


SLIDE_PIXELS = (1920, 1080)
SLIDE_DPI = 100


def slide_figure(entry):
    """One exercise run for a projector, 1920 x 1080: each rung's compute-only time as a horizontal bar (and its
    transfer-inclusive time where it copies to a device), then each library peer's in its own colour, the fastest
    rung starred; rungs that did not run are named with their status. Times, not speed-ups: a room reads
    "12 ms" at once; the speed-up over serial is written beside each bar."""
    rungs, peers = entry["rungs"], drawn_peers(entry)
    fastest = fastest_rung(rungs)
    serial = next((figure(row, "compute", "median_s") for row in rungs
                   if row["rung"] == "serial" and row["status"] == "ok"), None)
    times = [figure(row, "compute", "median_s") for row in rungs if row["status"] == "ok"] + \
        [figure(row, "transfer", "median_s") for row in rungs if row["status"] == "ok" and copies_data(row)] + \
        [peer["timings"]["compute"]["median_s"] for peer in peers]
    times = [t for t in times if t and t > 0]
    with plt.rc_context({"font.size": 16}):
        fig, axis = plt.subplots(figsize=(SLIDE_PIXELS[0] / SLIDE_DPI, SLIDE_PIXELS[1] / SLIDE_DPI), dpi=SLIDE_DPI)
        low, high = (min(times), max(times)) if times else (1e-6, 1.0)
        # Room on the right for the label past the longest bar ("953 ms, 5.56x slower than serial", some 400 of
        # the axis's 1,450 pixels): with m decades for it, m = 0.28 (span + margin on the left + m).
        axis.set_xlim(low / 3, high * 10 ** max(1.0, 0.4 * (math.log10(high / low) + 0.5)))
        left = low / 3  # bars start at the axis's left edge: log bars have no zero

        def label(y, seconds_taken, text, **style):
            axis.annotate(text, (seconds_taken, y), xytext=(6, 0), textcoords="offset points", va="center",
                          fontsize=15, **style)

        def versus_serial(seconds_taken):
            if not serial or seconds_taken <= 0:
                return ""
            factor = serial / seconds_taken  # a slowdown in words: "8x slower", not "0.125x"
            return f", {speedup_text(factor)}× faster than serial" if factor >= 1 else \
                f", {speedup_text(1 / factor)}× slower than serial"

        def note(y, text, colour):  # in a row with no bar
            axis.text(left * 1.2, y, text, va="center", fontsize=15, color=colour, style="italic")

        names = []
        for y, row in enumerate(rungs):
            names.append(row["rung"])
            if row["status"] != "ok":
                reason = textwrap.shorten(row.get("reason", ""), 90, placeholder=" ...")
                note(y, f"{row['status'].replace('_', ' ')}: {reason}", STATUS_COLOURS[row["status"]])
                continue
            compute_s = figure(row, "compute", "median_s")
            if compute_s <= 0:  # a log axis has no place for 0
                note(y, "0 s: below its timer's resolution", "black")
                continue
            both = copies_data(row)
            compute_y = y - 0.2 if both else y
            axis.barh(compute_y, compute_s - left, left=left, height=0.38, color=KIND_COLOURS["compute"])
            star = "   ★ fastest" if row is fastest else ""
            against = "" if row["rung"] == "serial" else versus_serial(compute_s)
            label(compute_y, compute_s, seconds(compute_s) + against + star,
                  fontweight="bold" if star else "normal")
            if both:
                transfer_s = figure(row, "transfer", "median_s")
                axis.barh(y + 0.2, transfer_s - left, left=left, height=0.38, color=KIND_COLOURS["transfer"])
                label(y + 0.2, transfer_s, seconds(transfer_s) + " with the copies")
        for j, peer in enumerate(entry.get("peers") or []):
            y = len(rungs) + j
            names.append(peer_label(peer["name"]))
            if peer not in peers:  # a library that did not run, or too fast for its own timer: in words
                reason = peer.get("reason") or (peer.get("check") or {}).get("detail", "")
                note(y, "0 s: below its timer's resolution" if peer["status"] == "ok" else
                     f"{peer['status']}: {textwrap.shorten(reason, 90, placeholder=' ...')}",
                     STATUS_COLOURS.get(peer["status"], "black"))
                continue
            peer_s = peer["timings"]["compute"]["median_s"]
            axis.barh(y, peer_s - left, left=left, height=0.38, facecolor=KIND_COLOURS["peer"], edgecolor="white",
                      hatch=PEER_HATCH)
            label(y, peer_s, seconds(peer_s) + versus_serial(peer_s))
        if entry.get("peers"):  # a rule between the ladder and the libraries
            axis.axhline(len(rungs) - 0.5, color="#555555", linewidth=1, linestyle=":")
        log_axis(axis, "x")
        axis.xaxis.set_major_formatter(ticker.FuncFormatter(lambda value, _: seconds(value)))
        axis.set_yticks(range(len(names)), names)
        if fastest:
            axis.get_yticklabels()[rungs.index(fastest)].set_fontweight("bold")
        axis.set_ylim(len(names) - 0.5, -0.5)  # the ladder top down, as in its README
        axis.set_xlabel("time, median (log scale; shorter is faster)")
        axis.grid(axis="x", which="major", alpha=0.3)
        fig.suptitle(f"{exercise_words(entry['exercise'])}: how long each rung and library takes", fontsize=28,
                     fontweight="bold")
        axis.set_title(textwrap.fill(run_title(entry), 120), fontsize=16)  # long parameter lists on two lines
        legend_below(fig, ["compute-only", "with the copies to and from the device"]
                     + (["a library on the same input (compute-only)"] if peers else []), fontsize=16)
        fig.tight_layout(rect=(0, 0.05, 1, 0.97))  # the legend below the axis, the title above it
    return fig


def write_slides(results, directory):
    """slides/EXERCISE.png for each exercise run (with its parameters in the name where the run holds the
    exercise more than once, a sweep), at the projector's 1920 x 1080."""
    folder = directory / "slides"
    folder.mkdir(exist_ok=True)
    exercises = [entry["exercise"] for entry in results["results"]]
    written = []
    for entry in results["results"]:
        name = entry["exercise"] if exercises.count(entry["exercise"]) == 1 else run_label(entry)
        fig = slide_figure(entry)
        # No bbox_inches="tight": it would trim the figure below the projector's size.
        fig.savefig(folder / f"{name}.png", dpi=SLIDE_DPI)
        plt.close(fig)
        written.append(folder / f"{name}.png")
    return written


def merged_ladder(results):
    """One rung order for all exercises: each exercise's extra rungs (cuda_atomics, ...) slot in after
    the rung they follow in that exercise's ladder."""
    order = []
    for entry in results["results"]:
        position = -1
        for row in entry["rungs"]:
            if row["rung"] in order:
                position = order.index(row["rung"])
            else:
                position += 1
                order.insert(position, row["rung"])
    return order


def overview_chart(results, directory, written):
    fig = overview_figure(results)
    if fig is None:
        return None
    save(fig, directory, "overview", written)
    return "overview"


def overview_figure(results):
    """Every exercise's ladder against naive, one column per rung that ran; None when nothing ran."""
    fig, axis = plt.subplots(figsize=(9, 4.5))
    # Only the rungs that ran somewhere in this run get a column: on a machine without a GPU the CUDA rungs
    # are skipped in every exercise, and a dozen empty columns would say nothing.
    ran = {row["rung"] for entry in results["results"] for row in entry["rungs"]
           if figure(row, "speedup", "vs_naive", "compute")}
    order = [rung for rung in merged_ladder(results) if rung in ran]
    plotted = False
    exercises = [entry["exercise"] for entry in results["results"]]
    for entry in results["results"]:
        points = [(order.index(row["rung"]), figure(row, "speedup", "vs_naive", "compute"))
                  for row in entry["rungs"] if row["rung"] in ran]
        points = [(x, v) for x, v in points if v]
        if not points:
            continue
        # The exercise's name, unless the run holds it more than once (a sweep): then its parameters too.
        label = entry["exercise"] if exercises.count(entry["exercise"]) == 1 else run_title(entry)
        # Points, not lines: neighbouring rungs of different exercises are not steps of one ladder.
        axis.plot([p[0] for p in points], [p[1] for p in points], marker="o", linestyle="none", markersize=8,
                  label=label)
        plotted = True
    if not plotted:
        plt.close(fig)
        return None
    axis.set_xticks(range(len(order)), order, rotation=30, ha="right")
    log_axis(axis)
    axis.set_ylabel("compute-only speed-up over naive (×, log scale)")
    axis.set_title("Every exercise's ladder (skipped and failed rungs are left out)")
    axis.grid(which="both", alpha=0.3)
    axis.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))  # beside the lines, not over them
    return fig


def best_cpu_overview_chart(results, directory, written):
    """The honest column, one pair of bars per exercise run: its fastest GPU rung against the fastest CPU
    entry of the same run (rung or peer), compute-only and transfer-inclusive."""
    bars = []
    for entry in results["results"]:
        gpu = [row for row in entry["rungs"] if row["status"] == "ok" and row.get("device_kind") == "gpu"]
        if not gpu or not entry.get("best_cpu"):
            continue
        fastest = min(gpu, key=lambda row: row["timings"]["compute"]["median_s"])
        speedup = fastest["timings"]["speedup"]["vs_best_cpu"]
        bars.append((f"{entry['exercise']}: {fastest['rung']}\nvs {entry['best_cpu']['name']}",
                     speedup["compute"], speedup["transfer"]))
    if not bars:
        return None
    fig, axis = plt.subplots(figsize=(10, 0.8 * len(bars) + 1.5))
    height = 0.38
    labels = {"compute": "compute-only", "transfer": "transfer-inclusive"}
    for i, (label, compute, transfer) in enumerate(bars):
        for offset, kind, value in ((-height / 2, "compute", compute), (height / 2, "transfer", transfer)):
            axis.barh(i + offset, value, height=height, color=KIND_COLOURS[kind],
                      label=labels[kind] if i == 0 else None)
            # On white, so that the 1x line does not cross a label just past it.
            axis.text(value * 1.05, i + offset, f"{value:.3g}×", va="center", fontsize=8,
                      bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.5})
    axis.axvline(1.0, color="black", linewidth=0.8)
    log_axis(axis, "x")
    # Room past the longest bar for its label, inside the frame: a tenth of the axis's width.
    left, right = axis.get_xlim()
    longest = max(value for _, compute, transfer in bars for value in (compute, transfer))
    axis.set_xlim(left, max(right, longest * (right / left) ** 0.1))
    axis.set_yticks(range(len(bars)), [b[0] for b in bars], fontsize=8)
    axis.invert_yaxis()
    axis.set_xlabel("speed-up of the fastest GPU rung over the fastest CPU entry (×, log scale; < 1: the CPU wins)")
    axis.set_title("The honest comparison: each exercise's fastest GPU rung against its best CPU entry")
    axis.grid(axis="x", which="both", alpha=0.3)
    # From the bars' own labels (names alone go to the artists in order: the 1x line took "compute-only"),
    # where no bar is.
    axis.legend(fontsize=8, loc="best")
    save(fig, directory, "overview-vs-best-cpu", written)
    return "overview-vs-best-cpu"


def scaling_charts(results, directory, written):
    """Entries of one exercise and size that differ in one parameter (or the thread count) form a sweep."""
    stems = []
    groups = {}
    for entry in results["results"]:
        if "scaling" in entry:  # a sweep over MPI ranks: ranks_scaling_charts
            continue
        groups.setdefault((entry["exercise"], entry["size"], entry.get("ranks", 1)), []).append(entry)
    for (exercise, size, _), entries in groups.items():
        if len(entries) < 2:
            continue
        varying = [k for k in entries[0]["parameters"] if len({e["parameters"].get(k) for e in entries}) > 1]
        if len({e.get("threads") for e in entries}) > 1:
            varying.append("threads")
        if len(varying) != 1:
            continue
        key = varying[0]
        value_of = (lambda e: float(e["threads"])) if key == "threads" else (lambda e: float(e["parameters"][key]))
        fig, axis = plt.subplots(figsize=(7, 4.5))
        for rung in [row["rung"] for row in entries[0]["rungs"]]:
            points = sorted((value_of(e), 1e3 * figure(row, "compute", "median_s") if row["status"] == "ok" else None)
                            for e in entries for row in e["rungs"] if row["rung"] == rung)
            shown = [(x, y) for x, y in points if y is not None]
            if shown:
                axis.plot([p[0] for p in shown], [p[1] for p in shown], marker="o", label=rung)
            missing = [x for x, y in points if y is None]
            if missing and shown:
                axis.plot(missing, [shown[0][1]] * len(missing), marker="x", linestyle="none", color="#c0392b")
        axis.set_xscale("log", base=2)
        axis.xaxis.set_major_formatter(ticker.FuncFormatter(lambda value, _: f"{value:g}"))
        log_axis(axis)
        axis.set_xlabel(f"{key} (log scale)")
        axis.set_ylabel("compute-only time, median (ms, log scale)")
        axis.set_title(f"{exercise} ({size}): time against {key}")
        axis.grid(which="both", alpha=0.3)
        axis.legend(fontsize=8)
        stem = re.sub(r"[^A-Za-z0-9_.=-]", "_", f"scaling-{exercise}-{size}-{key}")
        stem += "" if entries[0].get("ranks", 1) == 1 else f"-r{entries[0]['ranks']}"
        save(fig, directory, stem, written)
        stems.append((stem, f"{exercise} ({size}): time against {key}"))
    return stems


def distributed(row):
    """A rung that shares its work among the MPI ranks (mpi*, cuda_nccl*: the build's naming rule, as
    shares_work_among_ranks() in bench/src/registry.cpp); the others run on rank 0 alone."""
    return row["backend"] == "mpi" or row["rung"].startswith("cuda_nccl")


def ranks_series(entries):
    """{rung: [(ranks, entry, row)]} of a sweep over ranks, by ranks: the distributed rungs (every rung where
    the run has none)."""
    rungs = [row["rung"] for row in entries[0]["rungs"]]
    shared = [row["rung"] for row in entries[0]["rungs"] if distributed(row)]
    series = {}
    for rung in shared or rungs:
        points = [(entry.get("ranks", 1), entry, row) for entry in entries for row in entry["rungs"]
                  if row["rung"] == rung]
        series[rung] = sorted(points, key=lambda point: point[0])
    return series


def scaled(points, kind, figure_name):
    """[(ranks, time, speed-up, efficiency)] of one rung: against the fewest ranks on which it ran, p0. Strong:
    speed-up T0/Tp, efficiency (p0/p) T0/Tp; weak (the input grown with the ranks): efficiency T0/Tp, scaled
    speed-up (p/p0) T0/Tp. None for a rank count on which it did not run."""
    ran = [(p, figure(row, figure_name, "median_s")) for p, _, row in points if row["status"] == "ok"]
    ran = [(p, t) for p, t in ran if t]
    if not ran:
        return [], None
    p0, t0 = ran[0]
    out = []
    for p, _, row in points:
        time = figure(row, figure_name, "median_s") if row["status"] == "ok" else None
        if not time:
            out.append((p, None, None, None))
            continue
        speedup = t0 / time * (p / p0 if kind == "weak" else 1)
        out.append((p, time, speedup, speedup * p0 / p))
    return out, p0


def ranks_table(kind, series):
    """The markdown scaling table of one sweep over ranks: per rung and rank count, the time, the speed-up and
    the parallel efficiency, compute-only and transfer-inclusive."""
    weak = kind == "weak"
    speedup = "scaled speed-up" if weak else "speed-up"
    lines = ["| rung | ranks | " + ("input | " if weak else "") + f"compute | {speedup} | efficiency "
             f"| transfer-incl. | {speedup} | efficiency |",
             "| --- | --- | " + ("--- | " if weak else "") + "--- | --- | --- | --- | --- | --- |"]
    for rung, points in series.items():
        compute, p0 = scaled(points, kind, "compute")
        transfer, _ = scaled(points, kind, "transfer")
        for i, (p, entry, row) in enumerate(points):
            grown = f"{entry['scaled_parameter']}={entry['parameters'][entry['scaled_parameter']]} | " if weak else ""
            if row["status"] != "ok" or compute[i][1] is None:
                lines.append(f"| {rung} | {p} | {grown}**{row['status']}** | {row.get('reason', '')} | | | | |")
                continue
            cells = []
            for _, time, speedup, efficiency in (compute[i], transfer[i]):
                cells += [seconds(time), f"{speedup:.3g}×", f"{100 * efficiency:.3g} %"]
            lines.append(f"| {rung} | {p} | {grown}" + " | ".join(cells) + " |")
    return lines


def ranks_groups(results):
    """{(exercise, size): {kind: entries}} of the sweeps over MPI ranks (`ladder run --sweep ranks=...`)."""
    groups = {}
    for entry in results["results"]:
        if "scaling" in entry:
            kinds = groups.setdefault((entry["exercise"], entry["size"]), {})
            kinds.setdefault(entry["scaling"], []).append(entry)
    return {key: kinds for key, kinds in groups.items() if any(len(e) > 1 for e in kinds.values())}


def network_of(row):
    """The network a distributed rung's messages take: NCCL between GPUs, else MPI."""
    return "nccl" if row["rung"].startswith("cuda_nccl") else "mpi"


def predict(points, kind, networks, counts):
    """{ranks: (time, speed-up, efficiency)} the model (scaling_model.py) predicts for one rung at each count
    (compute-only, against the fewest ranks p0 it ran on, as `scaled`). None where the run has no probe of
    the rung's network, or the rung no record of what it sends."""
    ran = [(p, row) for p, _, row in points if row["status"] == "ok" and figure(row, "compute", "median_s")]
    sends = [row["communication"] for _, row in ran if "communication" in row]
    if not ran or not sends or network_of(ran[0][1]) not in networks:
        return None
    p0, t0 = ran[0][0], figure(ran[0][1], "compute", "median_s")
    # What it sends on the most ranks (kappa_sigma's rounds are counted there).
    return scaling_model.predict(p0, t0, sends[-1], networks[network_of(ran[0][1])], counts, kind)


def bytes_text(size):
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.3g} {unit}"
    return f"{size:.3g} B"


def sends_text(row):
    messages = row.get("communication")
    if messages is None:
        return "not recorded"
    return "; ".join(f"{m['rounds']:g} × {m['pattern']} of {bytes_text(m['bytes'])}" for m in messages) or "nothing"


def model_layout(networks, points):
    """", 4 GPUs a node" for a chart's legend: the layout the dashed line assumes."""
    backend = network_of(points[0][2])
    per_node = networks.get(backend, {}).get("per_node", math.inf)
    return "" if per_node == math.inf else f", {per_node} {unit_of(backend)} a node"


def link_text(link):
    return "; ".join(f"{operation} alpha {seconds(link[operation][0])}" + (" a step" if operation == "allreduce" else "")
                     + (f", 1/beta {1e-9 / link[operation][1]:.3g} GB/s" if link[operation][1] > 0 else ", beta 0")
                     for operation in scaling_model.OPERATIONS)


def unit_of(backend):
    return "GPUs" if backend == "nccl" else "ranks"


def network_text(backend, network):
    """The links the model takes for one backend, and where each comes from: two lines."""
    lines = [f"- {backend} inside a node ({network['inside_from']}): {link_text(network['inside'])}."]
    if network["per_node"] != math.inf:
        lines.append(f"- {backend} between nodes ({network['between_from']}): {link_text(network['between'])};"
                     f" {network['per_node']} {unit_of(backend)} a node sharing {network['adapters']:g} network"
                     f" adapter{'s' if network['adapters'] != 1 else ''}.")
    else:
        lines.append(f"- {backend} between nodes: no machine file, so every rank is taken to be on one node.")
    return lines


def model_table(kind, series, networks):
    """The markdown lines of the model's prediction for one sweep: the links, then per rung the efficiency it
    predicts at the largest count measured (beside the measured one) and at 8, 64 and 512 ranks, each
    naming its nodes. Also returns [(rung, ranks, predicted, measured)] at the largest count measured: the
    model's check."""
    if not networks:
        return ["No prediction: this run has no measurements of its network (context.communication: a sweep's"
                " launches of more than one rank record them since issue 47)."], []
    lines = ["Model (a prediction, not a measurement): compute-only time T(p) = "
             + ("p0 (T0 − C(p0)) / p + C(p)" if kind == "strong" else "T0 − C(p0) + C(p)")
             + ", C(p) what compute() sends on p ranks, each message alpha · steps + beta · bytes · share over"
             " the links it takes: inside a node as this run's probe of its network measured them, between nodes"
             " as named below (docs/measurement.md). The ranks fill one node after another. It knows nothing"
             " of contention beyond a node's shared adapters, or of a topology past a tree and a ring.", ""]
    used = {network_of(points[0][2]) for points in series.values()}
    for backend, network in sorted(networks.items()):
        if backend in used:
            lines += network_text(backend, network)
    lines += ["", "| rung | sends per compute | largest measured: predicted (measured) | "
              + " | ".join(f"predicted at {p}" for p in PREDICTED_RANKS) + " |",
              "| --- | --- | --- | " + " | ".join("---" for _ in PREDICTED_RANKS) + " |"]
    checks = []
    for rung, points in series.items():
        measured, _ = scaled(points, kind, "compute")
        counts = sorted({p for p, *_ in points} | set(PREDICTED_RANKS))
        model = predict(points, kind, networks, counts)
        last = [(p, e) for p, t, _, e in measured if t]
        backend = network_of(points[0][2])
        if model is None or not last:
            why = ("it did not run" if not last else "no probe of its network in this run"
                   if backend not in networks else "no record of what it sends")
            lines.append(f"| {rung} | {sends_text(points[-1][2])} | no prediction: {why} |"
                         + " |" * len(PREDICTED_RANKS))
            continue
        p, efficiency = last[-1]
        checks.append((rung, p, model[p][2], efficiency))
        layout = lambda q: scaling_model.layout_text(networks[backend], q, unit_of(backend))
        lines.append(f"| {rung} | {sends_text(points[-1][2])} | {p} ranks: {100 * model[p][2]:.3g} % "
                     f"({100 * efficiency:.3g} %) | "
                     + " | ".join(f"{layout(q)}: {100 * model[q][2]:.3g} %" for q in PREDICTED_RANKS) + " |")
    return lines, checks


def ranks_scaling_charts(results, directory, written, machine=None):
    """Per exercise and size swept over MPI ranks, one chart: a panel for strong scaling (speed-up against the
    fewest ranks, the ideal p/p0 drawn) and one for weak (efficiency T0/Tp, the ideal 1 drawn), where the run
    has them; compute-only in blue, transfer-inclusive in orange, a marker per rung. Returns [(stem, title,
    table lines)], the tables in the order of the panels."""
    out = []
    markers = "osD^v"
    fits = scaling_model.fit_network(results["context"], machine)
    for (exercise, size), kinds in ranks_groups(results).items():
        order = [kind for kind in ("strong", "weak") if len(kinds.get(kind, [])) > 1]
        fig, axes = plt.subplots(1, len(order), figsize=(6.5 * len(order), 4.8), squeeze=False)
        table = []
        for axis, kind in zip(axes[0], order):
            series = ranks_series(kinds[kind])
            counts = sorted({entry.get("ranks", 1) for entry in kinds[kind]})
            predicted = counts
            values = [1.0]
            for m, (rung, points) in enumerate(series.items()):
                for figure_name, style in (("compute", "-"), ("transfer", "--")):
                    line, p0 = scaled(points, kind, figure_name)
                    shown = [(p, s if kind == "strong" else e) for p, _, s, e in line if s]
                    if not shown:
                        continue
                    values += [v for _, v in shown]
                    label = f"{rung}, {'compute-only' if figure_name == 'compute' else 'transfer-inclusive'}"
                    axis.plot([p for p, _ in shown], [v for _, v in shown], linestyle=style,
                              marker=markers[m % len(markers)], color=KIND_COLOURS[figure_name], label=label)
                # The model, from the fewest ranks on: dashed, hollow markers, named a prediction.
                model = predict(points, kind, fits, sorted(set(counts) | set(PREDICTED_RANKS)))
                if model:
                    drawn = [(p, s if kind == "strong" else e) for p, (_, s, e) in model.items() if p >= counts[0]]
                    values += [v for _, v in drawn]
                    predicted = sorted(set(predicted) | {p for p, _ in drawn})
                    axis.plot([p for p, _ in drawn], [v for _, v in drawn], linestyle=(0, (5, 3)), linewidth=1.2,
                              marker=markers[m % len(markers)], markerfacecolor="none",
                              color=KIND_COLOURS["compute"],
                              label=f"{rung}, compute-only: model (prediction{model_layout(fits, points)})")
            p0 = counts[0]
            ideal = [p / p0 for p in predicted] if kind == "strong" else [1.0] * len(predicted)
            values += ideal
            axis.plot(predicted, ideal, linestyle=":", color="black", label="ideal")
            axis.set_xscale("log", base=2)
            axis.set_xticks(predicted, [str(p) for p in predicted])
            axis.xaxis.set_minor_formatter(ticker.NullFormatter())
            axis.set_ylim(min(values) / 1.5, max(values) * 1.5)
            log_axis(axis)
            axis.set_xlabel("MPI ranks (log scale)")
            if kind == "strong":
                axis.set_ylabel(f"speed-up against {p0} rank{'s' if p0 > 1 else ''} (×, log scale)")
                axis.set_title("strong scaling: one input for every rank count", fontsize=11)
            else:
                grown = kinds[kind][0]["scaled_parameter"]
                axis.set_ylabel(f"efficiency T{p0}/Tp (log scale; 1: ideal)")
                axis.set_title(f"weak scaling: {grown} × ranks, the same share per rank", fontsize=11)
            axis.grid(which="major", alpha=0.3)
            axis.legend(fontsize=8)
            what = ("speed-up T0/Tp, efficiency p0 T0/(p Tp)" if kind == "strong"
                    else "efficiency T0/Tp, scaled speed-up p T0/(p0 Tp)")
            table += [f"{kind.capitalize()} scaling, against the fewest ranks (p0 = {p0}, time T0): {what};"
                      " compute-only, then transfer-inclusive (the scatter and the gather included).", ""]
            table += ranks_table(kind, series) + [""]
            lines, checks = model_table(kind, series, fits)
            table += lines + [""]
            for rung, p, model, measured in checks:
                print(f"model check: {exercise} ({size}) {rung}, {kind} scaling on {p} ranks: predicted efficiency "
                      f"{100 * model:.3g} %, measured {100 * measured:.3g} %")
        fig.suptitle(f"{exercise} ({size}): scaling over MPI ranks")
        fig.tight_layout()
        stem = re.sub(r"[^A-Za-z0-9_.=-]", "_", f"scaling-{exercise}-{size}-ranks")
        save(fig, directory, stem, written)
        out.append((stem, f"{exercise} ({size}): scaling over MPI ranks", table[:-1]))
    return out


def markdown_html(lines):
    """The few markdown forms this report writes (paragraphs, one table) as HTML."""
    parts, in_table = [], False
    for line in lines:
        if line.startswith("| ---"):
            continue
        if line.startswith("|"):
            cells = [html.escape(c.strip().replace("**", "")) for c in line.strip("|").split("|")]
            tag = "th" if cells[0] == "rung" else "td"
            if not in_table:
                parts.append("<table>")
                in_table = True
            parts.append("<tr>" + "".join(f"<{tag}>{c}</{tag}>" for c in cells) + "</tr>")
            continue
        if in_table:
            parts.append("</table>")
            in_table = False
        if line:
            parts.append(f"<p>{html.escape(line)}</p>")
    if in_table:
        parts.append("</table>")
    return "\n".join(parts)


def inline_svg(directory, stem):
    svg = (directory / f"{stem}.svg").read_text()
    return svg[svg.index("<svg"):]  # drop the XML prolog inside HTML


def html_page(results, rows, speedup_stems, overview_stems, scaling, directory, ranks_scaling=()):
    """One page for a projector: the overview charts first, then each exercise run as its chart and its
    table, under a heading in words; the SVG charts inline, so that it opens anywhere without a network."""
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>hpc-ladder report</title>",
             "<style>body{font-family:sans-serif;max-width:1400px;margin:auto;font-size:18px}"
             "table{border-collapse:collapse;font-size:15px}"
             "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}td:first-child{text-align:left}"
             # A figure on one line ("117 ms – 151 ms", not "151" above "ms"); names and reasons wrap.
             "td{white-space:nowrap}td:first-child,td:nth-child(3){white-space:normal}"
             "svg{width:100%;height:auto}</style></head><body>",
             "<h1>hpc-ladder results</h1>", f"<p>{html.escape(introduction(results))}</p>"]
    titles = {"overview-vs-best-cpu": "Each exercise's fastest GPU rung against its best CPU entry",
              "overview": "Every exercise's ladder, against naive"}
    for stem in overview_stems:
        parts += [f"<h2>{html.escape(titles.get(stem, stem))}</h2>", inline_svg(directory, stem)]
    for entry, stem in zip(results["results"], speedup_stems):
        parts += [f"<h2>{html.escape(run_title(entry))}</h2>", inline_svg(directory, stem),
                  markdown_html(entry_table(entry, rows))]
    for stem, title in scaling:
        parts += [f"<h2>{html.escape(title)}</h2>", inline_svg(directory, stem)]
    for stem, title, table in ranks_scaling:
        parts += [f"<h2>{html.escape(title)}</h2>", inline_svg(directory, stem), markdown_html(table)]
    parts.append("</body></html>\n")
    return "\n".join(parts)


def main():
    parser = argparse.ArgumentParser(prog="ladder report", description=__doc__.split("\n")[0])
    parser.add_argument("results", help="results JSON written by `ladder run --out`")
    parser.add_argument("--out", help="output directory (default: report/ beside the results file)")
    parser.add_argument("--machine", default=str(scaling_model.DEFAULT_MACHINE),
                        help="machine file for the model's links between nodes, where the run had one node"
                             " (default: reports/machines/4-gpus-4x200g-infiniband.json; see"
                             " reports/machines/README.md)")
    args = parser.parse_args()
    results = load(args.results)
    try:
        machine = scaling_model.read_machine_file(args.machine)
    except scaling_model.MachineFileError as error:
        fail(str(error))
    add_vs_best_cpu(results)  # computed here, from the rungs and the peers the file holds
    if not results["results"]:
        fail(f"{args.results}: holds no exercise runs")
    directory = Path(args.out) if args.out else Path(args.results).resolve().parent / "report"
    directory.mkdir(parents=True, exist_ok=True)

    rows = table_rows(results)
    written = []
    write_csv(rows, directory / "timings.csv")
    speedups = [speedup_chart(entry, directory, written) for entry in results["results"]]
    overviews = [stem for stem in (best_cpu_overview_chart(results, directory, written),
                                   overview_chart(results, directory, written)) if stem]
    scaling = scaling_charts(results, directory, written)
    ranks_scaling = ranks_scaling_charts(results, directory, written, machine)
    (directory / "tables.md").write_text(markdown_tables(results, rows, ranks_scaling) + "\n")
    (directory / "report.html").write_text(html_page(results, rows, speedups, overviews, scaling, directory,
                                                     ranks_scaling))
    slides = write_slides(results, directory)
    print(f"report: {directory / 'report.html'} ({len(written)} charts, tables.md, timings.csv); "
          f"{len(slides)} slide{'s' if len(slides) > 1 else ''} in {directory / 'slides'}")


if __name__ == "__main__":
    main()
