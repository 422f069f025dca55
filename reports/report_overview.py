"""The report's overview charts: every exercise's ladder on one chart, and each exercise's fastest GPU rung
against its best CPU entry."""
from report_charts import KIND_COLOURS, log_axis, plt, save
from report_tables import figure, run_title


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
