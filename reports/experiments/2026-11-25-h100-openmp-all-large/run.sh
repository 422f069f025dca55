#!/usr/bin/env bash
# On the H100 machine: build `ladder`, then every exercise's openmp rung at
# the large size on 1 and 16 threads, two replicates, with the host's own
# scaling before and after (issue 17: at least 75 % parallel efficiency at
# 16 threads).
#   reports/experiments/2026-11-25-h100-openmp-all-large/run.sh OUTDIR
set -uo pipefail
out=${1:?usage: run.sh OUTDIR}
mkdir -p "$out"
build=build-gpu
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_GIT_REVISION="${LADDER_GIT_REVISION:-}" >"$out/build.log" 2>&1 &&
  cmake --build "$build" -j "$(nproc)" --target ladder >>"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
ladder=$build/bench/ladder
sleep 30  # let the build's load fall
{
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "processes using a core: $(ps -eo pcpu= | awk '$1 > 20' | wc -l)"
} >"$out/load.txt"
"$ladder" run vector_add --size tiny --variants serial --out "$out/scaling-before.json" >/dev/null 2>&1
"$ladder" run --size large --variants openmp --sweep threads=1,16 --replicates 2 --repetitions 3 --time-budget 10 \
  --out "$out/results-threads-large.json" >"$out/threads-large.log" 2>&1
echo "ladder run: exit $?" >>"$out/load.txt"
"$ladder" run vector_add --size tiny --variants serial --out "$out/scaling-after.json" >/dev/null 2>&1
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/load.txt"
grep -E "^[a-z_]+ \(size|openmp|host scaling|replicate" "$out/threads-large.log"
