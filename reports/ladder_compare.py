#!/usr/bin/env python3
"""ladder compare: do two runs agree? For reviewers rerunning a published table.

    ladder compare A.json B.json [--alpha 0.01] [--tolerance 0.05]

Rows are matched by (exercise, size, parameters, threads, rung). For each
row both in A and B with status ok, the compute-only and the
transfer-inclusive medians are compared. A difference is called real only
when the two runs' raw samples say so: a two-sided Mann-Whitney U test
(normal approximation with tie correction) at level --alpha, and a ratio
of medians outside 1 ± --tolerance. Inputs must match (the same input
checksums), and the outputs' checks must agree. The summary is the
geometric mean of the B/A ratios of medians.

Exit status: 0 the runs agree, 1 they differ (a real slowdown or speed-up,
a changed status or input), 2 bad usage.
"""
import argparse
import math
import sys

from ladder_results import fail as fail_with, load_results

PROGRAM = "ladder compare"


def fail(message):
    fail_with(PROGRAM, message)


def load(path):
    return load_results(PROGRAM, path)






def rows(results):
    table = {}
    for entry in results["results"]:
        run = (entry["exercise"], entry["size"], tuple(sorted(entry["parameters"].items())), entry.get("threads"))
        for row in entry["rungs"]:
            table[run + (row["rung"],)] = (entry, row)
    return table


def mann_whitney_p(a, b):
    """Two-sided p-value of the Mann-Whitney U test, normal approximation with tie correction."""
    n, m = len(a), len(b)
    if n < 2 or m < 2:
        return 1.0
    pooled = sorted([(x, 0) for x in a] + [(y, 1) for y in b])
    ranks = [0.0] * len(pooled)
    tie_term = 0.0
    i = 0
    while i < len(pooled):
        j = i
        while j + 1 < len(pooled) and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1  # average rank of a tie
        t = j - i + 1
        tie_term += t ** 3 - t
        i = j + 1
    rank_sum_a = sum(r for r, (_, group) in zip(ranks, pooled) if group == 0)
    u = rank_sum_a - n * (n + 1) / 2
    mean = n * m / 2
    variance = n * m / 12 * ((n + m + 1) - tie_term / ((n + m) * (n + m - 1)))
    if variance <= 0:
        return 1.0
    z = (abs(u - mean) - 0.5) / math.sqrt(variance)  # continuity correction
    return math.erfc(max(z, 0) / math.sqrt(2))


def main():
    parser = argparse.ArgumentParser(prog="ladder compare", description=__doc__.split("\n")[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--alpha", type=float, default=0.01, help="significance level (default 0.01)")
    parser.add_argument("--tolerance", type=float, default=0.05,
                        help="ratios within 1 ± this are called equal even when significant (default 0.05)")
    args = parser.parse_args()
    if not 0 < args.alpha < 1 or not 0 <= args.tolerance < 1:
        fail("--alpha must lie in (0, 1) and --tolerance in [0, 1)")
    a_rows, b_rows = rows(load(args.a)), rows(load(args.b))

    differ = False
    ratios = []
    print(f"{'exercise / size / rung':44} {'figure':9} {'A median':>11} {'B median':>11} {'B/A':>7} {'p':>9}  verdict")
    for key in sorted(set(a_rows) | set(b_rows), key=str):
        name = f"{key[0]} / {key[1]} / {key[-1]}"
        if key not in a_rows or key not in b_rows:
            print(f"{name:44} only in {'A' if key in a_rows else 'B'}")
            differ = True
            continue
        (entry_a, a), (entry_b, b) = a_rows[key], b_rows[key]
        if entry_a["input_checksums"] != entry_b["input_checksums"]:
            print(f"{name:44} inputs differ (checksums): the runs are not comparable")
            differ = True
            continue
        if a["status"] != b["status"]:
            print(f"{name:44} status {a['status']} in A, {b['status']} in B")
            differ = True
            continue
        if a["status"] != "ok":
            continue
        for figure in ("compute", "transfer"):
            sa, sb = a["timings"][figure], b["timings"][figure]
            ratio = sb["median_s"] / sa["median_s"]
            p = mann_whitney_p(sa["samples_s"], sb["samples_s"])
            real = p < args.alpha and abs(ratio - 1) > args.tolerance
            verdict = ("slower" if ratio > 1 else "faster") if real else "same"
            differ |= real
            if figure == "compute":
                ratios.append(ratio)
            print(f"{name:44} {figure:9} {sa['median_s']:11.4g} {sb['median_s']:11.4g} {ratio:7.3f} {p:9.2g}  {verdict}")
    if ratios:
        geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"\ngeometric mean of B/A (compute-only medians, {len(ratios)} rows): {geomean:.3f}")
    print("the runs agree" if not differ else "the runs differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
