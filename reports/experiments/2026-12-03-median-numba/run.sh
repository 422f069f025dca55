#!/usr/bin/env bash
# median_filter's Numba rungs against the C++ ones where the C++ rungs use a
# fixed network in vector registers (k = 3, 5, 7) and where both take the
# general path of selection_network.hpp (k = 9): the workshop stack, on the
# development machine kind (2 cores), with the .venv of scripts/bootstrap.sh.
#
#   bash reports/experiments/2026-12-03-median-numba/run.sh OUTDIR
set -eu
out=$1 ladder=build/release/bench/ladder
export LADDER_VENV=$PWD/.venv
mkdir -p "$out"
"$ladder" run median_filter --variants serial,python_numba --sweep size=3,9 --threads 1 --repetitions 3 --time-budget 20 \
  --out "$out/mf-sweep.json"
"$ladder" run median_filter --variants serial,python_numba --sweep size=5,7 --threads 1 --repetitions 3 --time-budget 20 \
  --out "$out/mf-sweep57.json"
"$ladder" run median_filter --variants openmp,python_numba_parallel --sweep size=3,9 --threads 2 --repetitions 3 \
  --time-budget 20 --out "$out/mf-par.json"
# serial beside openmp on one thread, then on two (the openmp rung's scaling)
for threads in 1 2; do
  "$ladder" run median_filter --variants serial,openmp --threads $threads --repetitions 3 --out "$out/openmp-threads-$threads.json"
done
