#!/usr/bin/env bash
# Sets up, builds and runs the whole suite on this machine's defaults:
# prints the speed-up table, times the peers on the same inputs, writes
# results/ladder-results.json and the report (tables, charts, one HTML
# page) into results/report/.
# Extra arguments go to `ladder run` (e.g. vector_add --size tiny).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
cuda=$(scripts/cuda_option.sh)  # CUDA built where a GPU is, or where LADDER_CUDA asks
# The configure summary: what was found, what is skipped and why.
cmake --preset release -DLADDER_CUDA="$cuda" | { grep "hpc-ladder" || true; }
# Only the program: the tests are scripts/test.sh's (building them too made a
# fresh clone's first run minutes longer).
cmake --build --preset release --target ladder
mkdir -p results
status=0
# A slow rung (pure Python, naive, NumPy's loops: 1-2 s a run here) gets
# 20 s, not ladder's 60: the same rows, fewer repetitions of those, minutes
# sooner. At least 3 repetitions a figure, not 5, as the reference runs
# take them: a slow row stops sooner, a fast one still runs for 0.2 s or
# more. An argument --time-budget S or --repetitions N after them takes
# their place.
build/release/bench/ladder run --time-budget 20 --repetitions 3 --out results/ladder-results.json "$@" || status=$?
# A failed rung (exit 1) still has results worth charting.
if [ -f results/ladder-results.json ] && [ $status -le 1 ]; then
  # The peers (NumPy/SciPy, CuPy, primesieve, DIALS: each where installed)
  # on the same inputs, as rows of the same results file.
  python=$(sed -n 's/^LADDER_PYTHON:FILEPATH=//p' build/release/CMakeCache.txt)
  "${python:-python3}" reports/peers.py results/ladder-results.json --ladder build/release/bench/ladder ||
    echo "run.sh: the peers could not run; the report shows the rungs alone"
  build/release/bench/ladder report results/ladder-results.json --out results/report
fi
exit $status
