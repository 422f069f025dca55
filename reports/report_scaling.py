"""The report's scaling: the charts of a sweep over a parameter (time against it) and of a sweep over MPI
ranks (speed-up or efficiency against the ranks, with the model's prediction), and their tables (the model
itself is scaling_model.py)."""
import math
import re

import scaling_model
from report_charts import KIND_COLOURS, log_axis, plt, save, ticker
from report_tables import figure, seconds
from scaling_model import PREDICTED_RANKS


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


def link_text(link, backend):
    """Each operation's alpha and 1/beta; a reduce only where the probe timed one."""
    return "; ".join(f"{operation} alpha {seconds(link[operation][0])}"
                     + (" a step" if scaling_model.alpha_per_step(operation, backend) else "")
                     + (f", 1/beta {1e-9 / link[operation][1]:.3g} GB/s" if link[operation][1] > 0 else ", beta 0")
                     for operation in scaling_model.OPERATIONS + ("reduce",) if operation in link)


def unit_of(backend):
    return "GPUs" if backend == "nccl" else "ranks"


def network_text(backend, network):
    """The links the model takes for one backend, and where each comes from: two lines."""
    lines = [f"- {backend} inside a node ({network['inside_from']}): {link_text(network['inside'], backend)}."]
    if network["per_node"] != math.inf:
        lines.append(f"- {backend} between nodes ({network['between_from']}): {link_text(network['between'], backend)};"
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
