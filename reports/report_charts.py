"""The report's charts: matplotlib set up without a display, the colours and log axes every chart shares,
and each exercise run's speed-up chart (a panel per baseline, the peers beside the rungs)."""
import math
import re
import sys
import textwrap

from report_tables import figure, run_label, run_title

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
    # The figure's tight bounding box found once for both files (bbox_inches="tight" draws the whole figure
    # again, for each file, to find it): a third of a report's time.
    fig.set_dpi(120)
    box = fig.get_tightbbox(fig.canvas.get_renderer()).padded(0.1)  # savefig's pad_inches for "tight"
    for suffix in ("png", "svg"):
        path = directory / f"{stem}.{suffix}"
        fig.savefig(path, dpi=120, bbox_inches=box)
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
    """One panel per baseline (naive, serial, the best CPU entry) that something is compared with, stacked so
    that each is as wide as the page; per rung a compute and a transfer bar, then per library peer one
    compute-only bar in its own colour.
    Bars start at 1x and grow up for a gain, down for a loss, so that a bar's length is the speed-up whatever
    the axis's range. The fastest rung's label is starred and bold. Rungs and peers without a bar (skipped,
    failed, a peer's time below its timer's resolution) keep their column, marked in words. None where no
    panel has anything to compare."""
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
    # A panel only where it compares something: another rung's speed-up against its baseline, or a peer's (a
    # sweep of cuda_nccl alone has no naive, serial or CPU entry, and its panels would hold nothing but "n/a").
    own = {"naive": "naive", "serial": "serial", "best_cpu": best["name"] if best else None}
    baselines = [baseline for baseline in baselines
                 if any(figure(row, "speedup", f"vs_{baseline}", kind) for row in rungs if row["rung"] != own[baseline]
                        for kind in ("compute", "transfer")) or (baseline_s.get(baseline) and drawn)]
    if not baselines:
        return None
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
    """The chart's file name, or None where it has nothing to compare (no_speedup_chart says why)."""
    fig = speedup_figure(entry)
    if fig is None:
        return None
    stem = f"{run_label(entry)}-speedup"
    save(fig, directory, stem, written)
    return stem


def no_speedup_chart(entry):
    """The one line a report gives in place of an exercise run's speed-up chart that has no panel."""
    ran = {row["rung"] for row in entry["rungs"] if row["status"] == "ok"}
    if not ({"naive", "serial"} & ran or entry.get("best_cpu")):
        return ("No speed-up chart: neither naive nor serial nor any other CPU entry ran here, so these rungs have"
                " nothing to be compared with; their times are in the table.")
    return "No speed-up chart: no rung or peer ran here beside its baseline to be compared with it."
