"""The report's tables: each exercise run's name and title, its rows (rungs, then peers) as timings.csv and
tables.md hold them, and the figures in words (seconds, ratios, percentages)."""
import csv
import re


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
                "language": row.get("language", "C++"),
                "python_device": row.get("python", {}).get("device", ""),
                "first_compute_s": row.get("timings", {}).get("first_call_s", {}).get("compute"),
                "status": row["status"],
                "reason": row.get("reason", ""),
                "device": row.get("device", ""),
                "device_kind": row.get("device_kind", ""),
                "compute_median_s": figure(row, "compute", "median_s"),
                "compute_min_s": figure(row, "compute", "min_s"),
                "compute_max_s": figure(row, "compute", "max_s"),
                "compute_cv": figure(row, "compute", "cv"),
                "transfer_median_s": figure(row, "transfer", "median_s"),
                "transfer_derived": "derived" in row.get("timings", {}).get("transfer", {}),
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
            " bytes need over PCIe at the pinned rates measured in the same run (*of PCIe*). A transfer-inclusive"
            " time marked ~ is compute + upload + download timed apart, not round trips: a CPU rung whose copies"
            " are under 1 % of its compute (`ladder run --round-trips` times them all).")


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
            f"| {'~' if row['transfer_derived'] else ''}{seconds(row['transfer_median_s'])} "
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


def copies_data(row):
    """Whether a rung copies its inputs to a device and its outputs back: a host rung's upload and download are
    no-ops, not figures, and so are an openmp_target rung's on the host fallback."""
    if row["backend"] == "openmp_target":
        return row.get("device_kind") == "gpu"
    if row["backend"] == "python":  # a CuPy, numba.cuda or PyOpenCL rung copies; NumPy and Numba on the host do not
        return (row.get("python_device") or row.get("python", {}).get("device", "cpu")) != "cpu"
    return row.get("device", "") != "" and row["backend"] in ("cuda", "opencl")


def markdown_anchor(title, taken):
    """The anchor a markdown viewer (GitHub's rule) gives a heading: lower case, punctuation dropped, spaces as
    hyphens, "-1", "-2", ... after a repeat; `taken` counts those given so far."""
    anchor = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
    repeat = taken.get(anchor, 0)
    taken[anchor] = repeat + 1
    return anchor + (f"-{repeat}" if repeat else "")


def markdown_tables(results, rows, ranks_scaling=()):
    """tables.md: a list of its contents, then the scaling tables of a sweep over ranks and the model's (what
    such a run is for), then each exercise run's table."""
    sections = [(title, table) for _, title, table in ranks_scaling]
    sections += [(run_title(entry), entry_table(entry, rows)) for entry in results["results"]]
    taken = {}
    lines = ["# hpc-ladder results", "", introduction(results), "", "Contents:", ""]
    lines += [f"- [{title}](#{markdown_anchor(title, taken)})" for title, _ in sections] + [""]
    for title, table in sections:
        lines += [f"## {title}", ""] + table + [""]
    return "\n".join(lines)
