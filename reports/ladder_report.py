#!/usr/bin/env python3
"""ladder report: tables and charts from one `ladder run`'s results JSON.

    ladder report RESULTS.json [--out DIR]      (or python3 reports/ladder_report.py ...)

This file reads the arguments and writes each part; the parts are beside it: report_tables.py (the rows,
timings.csv, tables.md), report_charts.py (the speed-up charts and what every chart shares),
report_overview.py, report_scaling.py (sweeps over a parameter or over ranks, the model's table),
report_slides.py and report_page.py (report.html).

Writes into DIR (default: report/ beside RESULTS.json):
  timings.csv            every row: status, timing statistics, speed-ups, fraction of ceiling
  tables.md              the same as Markdown, one table per exercise run, after a list of its contents (and
                         after the scaling tables, where the run is a sweep over ranks)
  <run>-speedup.png/svg  per exercise run that has something to compare (no chart for one without a naive,
                         serial or CPU entry, a sweep of cuda_nccl alone: the page says so in one line):
                         speed-up against naive, serial and the best CPU entry, compute-only
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
  report.html            one self-contained page with all of the above (no network needed): a list of its
                         contents, then a sweep's scaling charts and tables (what such a run is for), the
                         overview charts, then each exercise run's chart and table
  slides/EXERCISE.png    per exercise run, one picture for a projector (1920 x 1080, fonts of 15 pt and
                         more): each rung's and each peer's time, the fastest starred. Always written, so that
                         `ladder report` needs no option for them.
"""
import argparse
import itertools
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import scaling_model
from ladder_results import add_vs_best_cpu, fail as fail_with, load_results
from report_charts import speedup_chart
from report_overview import best_cpu_overview_chart, overview_chart
from report_page import html_page
from report_scaling import ranks_scaling_charts, scaling_charts
from report_slides import write_slides
from report_tables import markdown_tables, table_rows, write_csv

PROGRAM = "ladder report"


def fail(message):
    fail_with(PROGRAM, message)


def load(path):
    return load_results(PROGRAM, path)


def speedup_chart_files(entry, directory):
    """One exercise run's speed-up chart (its file stem, or None) and the files written: a worker's part."""
    written = []
    return speedup_chart(entry, directory, written), written


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
    # The exercises' charts and slides drawn side by side, a process for each core this process may use:
    # matplotlib draws on one (half the report's time on 2 cores). Forked: each starts with the modules loaded.
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    pool = ProcessPoolExecutor(max(1, min(cores, len(results["results"]))), mp_context=multiprocessing.get_context("fork"))
    speedups = []
    for stem, files in pool.map(speedup_chart_files, results["results"], itertools.repeat(directory)):
        speedups.append(stem)
        written += files
    overviews = [stem for stem in (best_cpu_overview_chart(results, directory, written),
                                   overview_chart(results, directory, written)) if stem]
    scaling = scaling_charts(results, directory, written)
    ranks_scaling = ranks_scaling_charts(results, directory, written, machine)
    (directory / "tables.md").write_text(markdown_tables(results, rows, ranks_scaling) + "\n")
    (directory / "report.html").write_text(html_page(results, rows, speedups, overviews, scaling, directory,
                                                     ranks_scaling))
    slides = write_slides(results, directory, pool.map)
    pool.shutdown()
    print(f"report: {directory / 'report.html'} ({len(written)} charts, tables.md, timings.csv); "
          f"{len(slides)} slide{'s' if len(slides) > 1 else ''} in {directory / 'slides'}")


if __name__ == "__main__":
    main()
