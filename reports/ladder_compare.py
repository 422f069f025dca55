#!/usr/bin/env python3
"""ladder compare: do two runs agree? For reviewers rerunning a published table.

    ladder compare A.json B.json [--device-floor 0.03] [--host-floor 0.05]

Rows are matched by (exercise, size, parameters, threads, MPI ranks, rung or
peer); an entry without ranks ran on one. A run that left the thread count to
the host (no --threads, no thread sweep) ran on "all the host's threads",
whatever their number: a reference taken on a 32-core host and its rerun on a
16-core one match row for row. Where the two counts differ, a host-timed
figure of a rung or peer that uses the host's threads (openmp, OpenCL or
Python on the CPU, OpenCV on every core) is named "not comparable", with
both counts, and is no difference; single-threaded rows, device-timed
figures and the copies are compared as ever. A peer only in A and one only in B
whose names differ by a parenthesised note at the end of one of them ("DIALS
DispersionThreshold" and "DIALS DispersionThreshold (float64 frames)") are
the same peer, matched one to one and said so.
Each row's compute-only and transfer-inclusive times are compared as the
ratio B/A of their central values: the median of the replicate medians when
the run has replicates (`ladder run --replicates N`), else the median.

The rule (judged against between-run noise, not within-run samples: on a
shared machine the samples of one run agree with each other far better than
two runs do):
  - same           |B/A - 1| <= floor
  - within noise   |B/A - 1| <= floor + spread(A) + spread(B)
  - as the machine  (host-timed only) beyond that, but within the same
                   allowance of how much faster or slower B's machine ran
                   than A's, by the machine probe both runs record (a fixed
                   one-thread multiply-add chain and a 64 MiB read, timed
                   before each replicate; and the host ceiling): two shared
                   virtual machines of one kind differ by more than one
                   machine's replicates do, and the probe measures by how much
  - slower/faster  beyond that: the difference is larger than this machine's
                   reruns vary, so it is real. A host-timed one is still
                   annotated where it lies within the floor plus how far the
                   probe's own readings varied within A and within B (the
                   machine's measured noise): such a figure differs, and the
                   reader is told that the machine alone moved that much
where spread is the relative range of a figure's replicate medians, (max -
min) / median, and the floor is 3 % for device-timed figures (CUDA events,
OpenCL profiling events on a GPU) and 5 % for host-timed ones (steady clock:
CPU rungs, the rungs on ranks by rank 0's MPI_Wtime, and every
transfer-inclusive time). An OpenCL rung whose device is the host's CPU
(PoCL, device_kind cpu) is host work: its events time the host's cores, so it
is judged as a host-timed figure, machine probe and all. So is a device-timed
figure whose window holds the host's work too (the row's
compute_window_holds: a streams rung's copies to and from the host, Numba's
dispatch of each launch): the timer column says "device+host", and the
summary names what each such window holds.
A run without replicates has no measured spread, so its rows are judged
against the floor alone. Inputs must match (the same input checksums) and
statuses must agree, except that a peer skipped in one run (its library not
installed on that machine) is not compared: it is named, and is no difference.

The summary gives one line per kind of timer, and the geometric mean of the
compute-only ratios.

Exit status: 0 the runs agree (every row same, within noise or as the
machine), 1 they
differ (a real slowdown or speed-up, a changed status or input), 2 bad usage
or a malformed file.
"""
import argparse
import math
import re
import sys

from ladder_results import fail as fail_with, load_results

PROGRAM = "ladder compare"
FIGURES = ("compute", "transfer")


def fail(message):
    fail_with(PROGRAM, message)


NUMBA_DISPATCH = "Numba's dispatch of each launch, run by the host between the events"


def host_work_in_window(row):
    """What a GPU row's compute-only window holds besides the device's own work: the row's
    compute_window_holds (a streams rung's copies to and from the host; Numba's dispatch). A run
    before rows said so (2026-12-04) is read as its worker timed it: a numba.cuda rung (numba
    without CuPy) got the clock that times Numba's dispatch too. Empty where the events time the
    device alone."""
    if row.get("compute_window_holds"):
        return row["compute_window_holds"]
    python = row.get("python") or {}
    libraries = python.get("libraries") or {}
    if "compute_clock" not in row and python.get("device") == "cuda" and "numba" in libraries and "cupy" not in libraries:
        return NUMBA_DISPATCH
    return ""


def timer(row, figure):
    """What timed a figure: "device" (the device's events, around its work alone), "device+host" (the
    device's events, with the host's work inside their window: judged as a host figure) or "host" (the
    host's steady clock: CPU rungs, the rungs on ranks by rank 0's MPI_Wtime, every transfer-inclusive
    time). An OpenCL device that is the host's CPU (PoCL: device_kind cpu) is host work, judged as such:
    its events time the host's cores, which move as the machine does."""
    if figure != "compute":
        return "host"
    if "rung" not in row:  # a peer: CuPy's on the GPU are timed by CUDA events
        return "device" if row.get("device") == "gpu" else "host"
    if row.get("device_kind") == "cpu":
        return "host"
    clock = row.get("compute_clock")
    if clock is None:  # a run before rows said (2026-12-04): a rung on ranks (cuda_nccl) was on MPI_Wtime
        on_ranks = "communication" in row or row.get("device", "").endswith("(NCCL)")
        on_device_events = row.get("backend") in ("cuda", "opencl", "python") and not on_ranks
        clock = "device" if on_device_events else "host"
    if clock == "host":
        return "host"
    return "device+host" if host_work_in_window(row) else "device"


def device_timed(row, figure):
    """Whether the device's events timed a figure (the host's work inside their window or not)."""
    return timer(row, figure) != "host"


def partly_host(row, figure, kind):
    """Whether only part of a host-judged figure is the host's work: a device-timed window that holds
    some, or a GPU rung's transfer-inclusive time (its kernels and the link's copies besides the host's
    side of them). Such a figure moves by no more than the host does."""
    return kind == "device+host" or (figure == "transfer" and row.get("device_kind") == "gpu")


def pair_timer(a, b, figure):
    """The timer two runs' rows are judged by: the host's where either says so (a rerun's ladder knows
    what an older one did not record)."""
    timers = {timer(a, figure), timer(b, figure)}
    return "host" if "host" in timers else "device+host" if "device+host" in timers else "device"


ALL_THREADS = "all the host's"


def host_threads(results):
    """The host's thread count where a run left the thread count to the host (no --threads, no
    `--sweep threads=...`): every entry of it ran on all the host's threads. None where it chose."""
    context = results.get("context", {})
    host = context.get("host", {})
    if host.get("threads_requested") or "threads=" in context.get("command_line", ""):
        return None
    return host.get("hardware_threads")


def peer_key(name, threads):
    """A peer's key: "opencv cv2.calcHist (32 threads)", run on every core of a 32-core host, is the
    same peer as "(16 threads)" on a 16-core one."""
    if threads and threads > 1:
        name = re.sub(rf" \({threads} threads\)$", f" ({ALL_THREADS} threads)", name)
    return "peer: " + name


def uses_host_threads(row):
    """Whether a row's host-timed figures depend on the host's thread count: the openmp rungs,
    an OpenCL, openmp_target or Python rung on the CPU (PoCL's work-items, the host fallback,
    Numba's prange: each on every core), and a peer run on every core."""
    if "rung" not in row:
        return row.get("name", "").endswith(f" ({ALL_THREADS} threads)")
    if row.get("backend") == "openmp":
        return True
    return row.get("backend") in ("opencl", "openmp_target", "python") and row.get("device_kind") == "cpu"


def rows(results, path):
    """{key: (entry, row)} of every rung and peer of a results file."""
    table = {}
    every = host_threads(results)
    try:
        for entry in results["results"]:
            threads = ALL_THREADS if every else entry.get("threads")
            run = (entry["exercise"], entry["size"], tuple(sorted(entry["parameters"].items())), threads,
                   entry.get("ranks", 1))
            for row in entry["rungs"]:
                table[run + (row["rung"],)] = (entry, row)
            for peer in entry.get("peers") or []:
                key = run + (peer_key(peer["name"], every),)
                table[key] = (entry, dict(peer, name=key[-1].removeprefix("peer: ")))
    except (KeyError, TypeError, AttributeError) as error:
        fail(f"{path}: malformed results file ({type(error).__name__}: {error})")
    return table


def without_note(name):
    """A peer's name without a parenthesised note at its end: "DIALS DispersionThreshold (float64 frames)"
    gives "DIALS DispersionThreshold"; "numpy np.matmul(a, b)" stays as it is (a call, not a note)."""
    return re.sub(r" \([^()]*\)$", "", name)


def match_renamed_peers(a_rows, b_rows):
    """Pairs a peer only in A with a peer only in B of the same run where one name is the other with a
    parenthesised note added, and files B's row under A's key; returns {key: B's name} for each pair.

    Runs up to issue 62 named some peers shorter where their library was missing ("DIALS
    DispersionThreshold" skipped, "DIALS DispersionThreshold (float64 frames)" timed). Only one-to-one
    pairs: "opencv cv2.calcHist" against "opencv cv2.calcHist (1 thread)" and "(2 threads)" stays apart.
    """
    def unmatched(mine, theirs):
        return [key for key in mine if key[-1].startswith("peer: ") and key not in theirs]
    only_a, only_b = unmatched(a_rows, b_rows), unmatched(b_rows, a_rows)
    related = lambda x, y: x[:-1] == y[:-1] and (without_note(x[-1]) == y[-1] or x[-1] == without_note(y[-1]))
    renamed = {}
    for a_key in only_a:
        partners = [b_key for b_key in only_b if related(a_key, b_key)]
        if len(partners) == 1 and [k for k in only_a if related(k, partners[0])] == [a_key]:
            b_rows[a_key] = b_rows.pop(partners[0])
            renamed[a_key] = partners[0][-1].removeprefix("peer: ")
    return renamed


def central(figures):
    """The central time of one figure and the spread between its replicates (0 without replicates)."""
    medians = figures.get("replicate_medians_s") or [figures["median_s"]]
    ordered = sorted(medians)
    n = len(ordered)
    middle = ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2
    spread = (ordered[-1] - ordered[0]) / middle if n > 1 and middle > 0 else 0.0
    return middle, spread


def median(values):
    ordered = sorted(values)
    n = len(ordered)
    return ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2


def machine_ratios(a_results, b_results):
    """{probe: B/A}: how much longer B's machine took than A's for the same fixed work.

    From the machine probe (context.readings.machine_probe, the median of its
    timings over the run) and the host ceiling (A's bandwidth over B's).
    Empty when either run lacks them (runs before the probe existed).
    """
    ratios = {}
    probes = [(r.get("context", {}).get("readings") or {}).get("machine_probe") or {} for r in (a_results, b_results)]
    for name in ("scalar_chain_s", "memory_pass_s"):
        times = [probe.get(name) or [] for probe in probes]
        if all(times) and all(t > 0 and math.isfinite(t) for run in times for t in run):
            ratios[name.removesuffix("_s").replace("_", " ")] = median(times[1]) / median(times[0])
    ceilings = [(r.get("context", {}).get("ceilings") or {}).get("host_bytes_per_s") or 0 for r in (a_results, b_results)]
    if all(c > 0 for c in ceilings) and ratios:
        ratios["host ceiling"] = ceilings[0] / ceilings[1]
    return ratios


def machine_noise(results):
    """How far the machine probe's own readings varied within one run: the
    largest relative range, (max - min) / median, over its kinds. None
    without a probe of at least two readings."""
    probe = (results.get("context", {}).get("readings") or {}).get("machine_probe") or {}
    spreads = []
    for name in ("scalar_chain_s", "memory_pass_s"):
        times = probe.get(name) or []
        if len(times) >= 2 and all(t > 0 and math.isfinite(t) for t in times):
            spreads.append((max(times) - min(times)) / median(times))
    return max(spreads) if spreads else None


def judge(a, b, floor, machine=None, partly=False):
    """(ratio, allowance, verdict) of one figure; times are in seconds.

    `machine` ({probe: B/A}) lets a host-timed figure that moved as the
    machine did be called "as the machine" rather than slower or faster.
    `partly`: only part of the figure's window is the host's work (a
    device-timed window that holds some), so it moves by at most as much as
    the machine did: anywhere from not at all to the probe's difference is
    the machine's doing.
    """
    (time_a, spread_a), (time_b, spread_b) = central(a), central(b)
    if time_a == 0 and time_b == 0:  # both below their timer's resolution (primesieve's own --time at small n)
        return 1.0, floor, "same"
    if not all(math.isfinite(t) and t > 0 for t in (time_a, time_b)):
        return math.nan, math.nan, "invalid time"
    ratio = time_b / time_a
    allowance = floor + spread_a + spread_b
    if abs(ratio - 1) <= floor:
        return ratio, allowance, "same"
    if abs(ratio - 1) <= allowance:
        return ratio, allowance, "within noise"
    if machine:
        low, high = min(machine.values()), max(machine.values())
        if partly:
            low, high = min(low, 1.0), max(high, 1.0)
        if low * (1 - allowance) <= ratio <= high * (1 + allowance):
            return ratio, allowance, "as the machine"
    return ratio, allowance, "slower" if ratio > 1 else "faster"


def l2_eviction(context):
    """How a run evicted the GPU's L2 before each repetition: reading, writing or nothing.

    A run without `l2_eviction_by` was taken before `ladder run` could evict by reading: it wrote.
    """
    if not context.get("l2_eviction", True):
        return "nothing"
    return context.get("l2_eviction_by", "writing")


def compare(a_results, b_results, device_floor=0.03, host_floor=0.05, out=sys.stdout, names=("A", "B"),
            new_rungs_differ=True):
    """Prints the comparison; returns True when the runs agree.

    new_rungs_differ=False (a rerun of a reference by a later ladder): a rung only in B whose name A's
    entry of that exercise never had is new since A, named and not compared; a rung only in A still differs.
    """
    a_rows, b_rows = rows(a_results, names[0]), rows(b_results, names[1])
    renamed = match_renamed_peers(a_rows, b_rows)
    not_compared = []  # peers skipped in one run: nothing was timed there to compare
    other_threads = []  # host-timed figures of rows that use the host's threads, on hosts of other sizes
    new_rungs = []  # rungs the rerun's ladder has and the reference's had not
    a_rung_names = {(key[0], key[-1]) for key in a_rows}
    differ = False
    ratios = []
    kinds = ("device", "device+host", "host")
    tally = {kind: {"same": 0, "within noise": 0, "as the machine": [], "differ": []} for kind in kinds}
    host_work = {}  # {exercise/rung: what its device-timed window holds of the host's work}
    machine = machine_ratios(a_results, b_results)
    if machine:
        print("machines: for the same fixed work B took " +
              ", ".join(f"{ratio:.2f}x A's time ({name})" for name, ratio in machine.items()), file=out)
    evictions = [l2_eviction(results.get("context", {})) for results in (a_results, b_results)]
    if evictions[0] != evictions[1]:
        print(f"note: {names[0]} evicted the GPU's L2 by {evictions[0]}, {names[1]} by {evictions[1]}: GPU figures"
              " differ by that too (writing charges a kernel for another buffer's dirty lines; docs/design.md)",
              file=out)
    noise = [machine_noise(results) for results in (a_results, b_results)]
    if all(n is not None for n in noise):
        print(f"machines' own noise: the probe's readings varied by up to {noise[0] * 100:.0f} % within A"
              f" and {noise[1] * 100:.0f} % within B", file=out)
    print(f"{'exercise / size / rung':52} {'figure':9} {'timer':11} {'A':>11} {'B':>11} {'B/A':>7} {'allowed':>8}  verdict",
          file=out)
    def not_compared_peer(name, key, said, noted):
        """A peer skipped in one run (its library missing there): nothing was timed there to compare."""
        print(f"{name:52} {said}: not compared", file=out)
        not_compared.append(f"{key[0]}/{key[-1]} {noted}")

    for key in sorted(set(a_rows) | set(b_rows), key=str):
        ranks = f" / {key[4]} ranks" if key[4] != 1 else ""
        name = f"{key[0]} / {key[1]}{ranks} / {key[-1]}"
        if key in renamed:
            name += f" (in {names[1]}: {renamed[key]})"
        peer = key[-1].startswith("peer: ")
        if key not in a_rows or key not in b_rows:
            side, (_, row) = ("A", a_rows[key]) if key in a_rows else ("B", b_rows[key])
            if peer and row.get("status") == "skipped":
                not_compared_peer(name, key, f"only in {side}, skipped there", f"only in {side}, skipped")
                continue
            if side == "B" and not peer and not new_rungs_differ and (key[0], key[-1]) not in a_rung_names:
                print(f"{name:52} only in {names[1]}: a rung new since {names[0]}, not compared", file=out)
                new_rungs.append(f"{key[0]}/{key[-1]}")
                continue
            print(f"{name:52} only in {side}", file=out)
            differ = True
            continue
        (entry_a, a), (entry_b, b) = a_rows[key], b_rows[key]
        if entry_a.get("input_checksums") != entry_b.get("input_checksums"):
            print(f"{name:52} inputs differ (checksums): the runs are not comparable", file=out)
            differ = True
            continue
        if a.get("status") != b.get("status"):
            # A peer whose library one machine lacks was timed in one run only: nothing to compare, no difference.
            if peer and "skipped" in (a.get("status"), b.get("status")):
                side, row = ("A", a) if a.get("status") == "skipped" else ("B", b)
                not_compared_peer(name, key, f"skipped in {side} ({row.get('reason', 'no reason given')})",
                                  f"skipped in {side}")
                continue
            print(f"{name:52} status {a.get('status')} in A, {b.get('status')} in B", file=out)
            differ = True
            continue
        if a.get("status") != "ok":
            continue
        for figure in FIGURES:
            if figure not in a.get("timings", {}) or figure not in b.get("timings", {}):
                continue  # peers have no transfer-inclusive figure
            kind = pair_timer(a, b, figure)
            if kind == "device+host":
                host_work[f"{key[0]}/{key[-1]}"] = host_work_in_window(b) or host_work_in_window(a)
            if kind == "host" and entry_a.get("threads") != entry_b.get("threads") and uses_host_threads(a):
                # All of a 32-core host against all of a 16-core one: no probe scales one to the other.
                counts = f"{entry_a.get('threads')} threads in {names[0]}, {entry_b.get('threads')} in {names[1]}"
                print(f"{name:52} {figure:9} {kind:11} not comparable: it uses the host's threads, {counts}",
                      file=out)
                other_threads.append((f"{key[0]}/{key[-1]} {figure}", counts))
                continue
            try:
                # A device-timed window that holds the host's work moves with the host: judged as host figures are.
                ratio, allowance, verdict = judge(a["timings"][figure], b["timings"][figure],
                                                  device_floor if kind == "device" else host_floor,
                                                  machine if kind != "device" else None, partly_host(a, figure, kind))
            except (KeyError, TypeError, ZeroDivisionError) as error:
                fail(f"malformed timings for {name} {figure} ({type(error).__name__}: {error})")
            time_a, time_b = central(a["timings"][figure])[0], central(b["timings"][figure])[0]
            shown = verdict  # the verdict as printed, with any note
            if verdict in ("same", "within noise"):
                tally[kind][verdict] += 1
            elif verdict == "as the machine":
                tally[kind][verdict].append(f"{key[0]}/{key[-1]} {figure} {ratio:.2f}x")
            else:
                differ = True
                reason = ""
                if (kind != "device" and all(n is not None for n in noise) and math.isfinite(ratio)
                        and abs(ratio - 1) <= host_floor + noise[0] + noise[1]):
                    shown = verdict + ", within the machines' own noise"
                    reason = (f"; within the machines' own noise: the probe varied by {noise[0] * 100:.0f} %"
                              f" in A, {noise[1] * 100:.0f} % in B")
                tally[kind]["differ"].append(f"{key[0]}/{key[-1]} {figure} {ratio:.2f}x {verdict}"
                                             f" (allowed {allowance * 100:.0f} %{reason})")
            if figure == "compute" and math.isfinite(ratio):
                ratios.append(ratio)
            print(f"{name:52} {figure:9} {kind:11} {time_a:11.4g} {time_b:11.4g} {ratio:7.3f} {allowance * 100:7.1f}%"
                  f"  {shown}", file=out)

    print("", file=out)
    for kind, floor in (("device", device_floor), ("device+host", host_floor), ("host", host_floor)):
        counts = tally[kind]
        total = counts["same"] + counts["within noise"] + len(counts["as the machine"]) + len(counts["differ"])
        if total == 0:
            continue
        label = {"device+host": "device-timed with the host's work inside (judged as host figures)"}.get(
            kind, f"{kind}-timed")
        line = (f"{label}: {counts['same']} of {total} figures reproduce within {floor * 100:.0f} %"
                f", {counts['within noise']} within their measured spread between replicates")
        if counts["as the machine"]:
            line += (f"; {len(counts['as the machine'])} differ only as far as the machines do (machine probe): "
                     + "; ".join(counts["as the machine"]))
        if counts["differ"]:
            line += f"; {len(counts['differ'])} differ: " + "; ".join(counts["differ"])
        if kind == "device+host":
            line += "; what their windows hold: " + "; ".join(f"{rung}: {why}" for rung, why in host_work.items())
        print(line, file=out)
    if renamed:
        print(f"peers matched across a note added to their name: " + "; ".join(
            f"{key[0]}/{key[-1]} is {names[1]}'s {name}" for key, name in renamed.items()), file=out)
    if not_compared:
        print(f"peers not compared ({len(not_compared)}), skipped in one run: "
              + "; ".join(not_compared), file=out)
    if other_threads:
        counts = sorted({c for _, c in other_threads})
        print(f"host-timed figures not comparable ({len(other_threads)}): their rows use the host's threads"
              f" ({'; '.join(counts)}), and no probe scales one host's cores to another's: "
              + "; ".join(figure for figure, _ in other_threads), file=out)
    if new_rungs:
        print(f"rungs new since {names[0]} ({len(new_rungs)}), not compared: " + ", ".join(new_rungs), file=out)
    for label, results in zip(names, (a_results, b_results)):
        if not any("replicate_medians_s" in row.get("timings", {}).get("compute", {})
                   for _, row in rows(results, label).values()):
            print(f"note: {label} has no replicates, so its spread between runs is unknown and its rows are judged"
                  " against the floor alone (rerun with `ladder run --replicates 3`)", file=out)
    if ratios:
        geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"geometric mean of B/A (compute-only, {len(ratios)} rows): {geomean:.3f}", file=out)
    explained = sum(len(counts["as the machine"]) for counts in tally.values())
    if differ:
        # Which kind of figure differs: a reviewer of GPU kernels reads "every device-timed figure reproduces"
        # differently from a kernel that changed.
        kinds = [f"{len(tally[kind]['differ'])} {kind}-timed" for kind in kinds if tally[kind]["differ"]]
        verdict = "the runs differ" + (": " + " and ".join(kinds) + " figure(s)" if kinds else "")
        device = tally["device"]
        if kinds and not device["differ"] and device["same"] + device["within noise"] + len(device["as the machine"]):
            verdict += "; every device-timed figure reproduces"
        print(verdict, file=out)
    elif explained:
        print(f"the runs agree, {explained} host figures only once the machines' measured difference is allowed for",
              file=out)
    else:
        print("the runs agree", file=out)
    return not differ


def main():
    parser = argparse.ArgumentParser(prog="ladder compare", description=__doc__.split("\n")[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--device-floor", type=float, default=0.03,
                        help="device-timed ratios within 1 ± this are the same (default 0.03)")
    parser.add_argument("--host-floor", type=float, default=0.05,
                        help="host-timed ratios within 1 ± this are the same (default 0.05)")
    args = parser.parse_args()
    if not (0 <= args.device_floor < 1 and 0 <= args.host_floor < 1):
        fail("--device-floor and --host-floor must lie in [0, 1)")
    agree = compare(load_results(PROGRAM, args.a), load_results(PROGRAM, args.b), args.device_floor, args.host_floor)
    sys.exit(0 if agree else 1)


if __name__ == "__main__":
    main()
