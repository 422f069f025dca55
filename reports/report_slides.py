"""The report's slides: one picture per exercise run for a projector, 1920 x 1080, each rung's and each
peer's time as a bar."""
import math
import textwrap

from report_charts import (KIND_COLOURS, PEER_HATCH, STATUS_COLOURS, drawn_peers, fastest_rung, legend_below,
                           log_axis, peer_label, plt, speedup_text, ticker)
from report_tables import copies_data, figure, run_label, run_title, seconds


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

        # Past about 14 rows (the Python rungs beside the C++ ones, the peers under them) a row is some 40
        # pixels high: a rung's two labels, one above the other, would run into their neighbours. Then each
        # row has one line: the copies' time joins the compute label.
        crowded = len(rungs) + len(entry.get("peers") or []) > 14
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
            text = seconds(compute_s) + against
            transfer_s = figure(row, "transfer", "median_s") if both else 0
            if both:
                axis.barh(y + 0.2, transfer_s - left, left=left, height=0.38, color=KIND_COLOURS["transfer"])
            if both and crowded:  # one line, past the longer bar
                label(y, max(compute_s, transfer_s), text + f"; {seconds(transfer_s)} with the copies" + star,
                      fontweight="bold" if star else "normal")
                continue
            label(compute_y, compute_s, text + star, fontweight="bold" if star else "normal")
            if both:
                label(y + 0.2, transfer_s, seconds(transfer_s) + " with the copies")
        for j, peer in enumerate(entry.get("peers") or []):
            y = len(rungs) + j
            names.append(peer_label(peer["name"]).replace("\n", " "))  # one line: a row may be 40 pixels high
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


def write_slide(entry, path):
    """One slide: a worker's part of write_slides."""
    fig = slide_figure(entry)
    # No bbox_inches="tight": it would trim the figure below the projector's size.
    fig.savefig(path, dpi=SLIDE_DPI)
    plt.close(fig)
    return path


def write_slides(results, directory, map_each=map):
    """slides/EXERCISE.png for each exercise run (with its parameters in the name where the run holds the
    exercise more than once, a sweep), at the projector's 1920 x 1080. `map_each`: a process pool's map,
    to draw them side by side."""
    folder = directory / "slides"
    folder.mkdir(exist_ok=True)
    exercises = [entry["exercise"] for entry in results["results"]]
    paths = [folder / f"{entry['exercise'] if exercises.count(entry['exercise']) == 1 else run_label(entry)}.png"
             for entry in results["results"]]
    return list(map_each(write_slide, results["results"], paths))
