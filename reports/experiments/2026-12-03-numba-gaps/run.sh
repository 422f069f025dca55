#!/usr/bin/env bash
# Where the Numba rungs of primes, histogram, spot_finding and batched_matmul
# stay behind their C++ rungs (issue 70's 1.5x against openmp): each serial
# pair (python_numba against serial) and parallel pair (python_numba_parallel
# against openmp, 2 threads) over input sizes, so that a fixed cost (shrinking
# with n) and a per-element one (staying) can be told apart. On the development
# machine kind (2 cores), with the .venv of scripts/bootstrap.sh.
#
#   bash reports/experiments/2026-12-03-numba-gaps/run.sh OUTDIR
set -u
out=$1 ladder=build/release/bench/ladder
export LADDER_VENV=${LADDER_VENV:-$PWD/.venv}
mkdir -p "$out"
pairs=serial,python_numba,openmp,python_numba_parallel
common=(--threads 2 --repetitions 3 --time-budget 20)
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >"$out/load.txt"
"$ladder" run primes --variants "$pairs" --sweep n=100000,1000000,10000000,100000000 "${common[@]}" \
  --out "$out/primes.json" >"$out/primes.log" 2>&1
"$ladder" run histogram --variants "$pairs" --sweep n=65536,1048576,16777216,67108864 "${common[@]}" \
  --out "$out/histogram.json" >"$out/histogram.log" 2>&1
for size in workshop large; do
  "$ladder" run batched_matmul --variants "$pairs" --size "$size" "${common[@]}" \
    --out "$out/batched_matmul-$size.json" >"$out/batched_matmul-$size.log" 2>&1
done
"$ladder" run spot_finding --variants "$pairs" --sweep frames=1,8,32 "${common[@]}" \
  --out "$out/spot_finding.json" >"$out/spot_finding.log" 2>&1
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/load.txt"
gzip -9f "$out"/*.json
