#!/usr/bin/env bash
# On the H100 machine: build `ladder`, check every primes rung, sweep the
# primes serial and openmp rungs over 1-16 threads at n = 10^8 with the
# host's own scaling before and after, then compute-sanitizer (memcheck,
# racecheck, synccheck) over `ladder check` of every CUDA rung.
#   reports/experiments/2026-11-25-h100-primes-wheel-threads/run.sh OUTDIR
set -uo pipefail
out=${1:?usage: run.sh OUTDIR}
mkdir -p "$out"
build=build-gpu
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_GIT_REVISION="${LADDER_GIT_REVISION:-}" &&
    cmake --build "$build" -j "$(nproc)" --target ladder
} >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
ladder=$build/bench/ladder
sleep 20  # let the build's load fall
{
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "processes using a core: $(ps -eo pcpu= | awk '$1 > 20' | wc -l)"
} >"$out/load.txt"
"$ladder" check primes >"$out/check-primes.log" 2>&1; echo "check primes: exit $?" | tee -a "$out/load.txt"
"$ladder" run vector_add --size tiny --variants serial --out "$out/scaling-before.json" >/dev/null 2>&1
"$ladder" run primes --size large --variants serial,openmp --sweep threads=1,2,4,8,16 --replicates 3 \
  --out "$out/results-threads-large.json" >"$out/threads-large.log" 2>&1
"$ladder" run vector_add --size tiny --variants serial --out "$out/scaling-after.json" >/dev/null 2>&1
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/load.txt"
grep -E "openmp|serial|host scaling|replicate" "$out/threads-large.log" | head -60
: >"$out/sanitizer.log"
deadline=$((SECONDS + ${SANITIZER_SECONDS:-300}))
while read -r exercise rungs; do
  for tool in memcheck racecheck synccheck; do
    [ $SECONDS -lt $deadline ] || { echo "== out of time before $tool $exercise" >>"$out/sanitizer.log"; continue; }
    echo "== compute-sanitizer --tool $tool: ladder check $exercise --variants $rungs" >>"$out/sanitizer.log"
    start=$SECONDS
    compute-sanitizer --tool "$tool" --error-exitcode 9 "$ladder" check "$exercise" --variants "$rungs" >>"$out/sanitizer.log" 2>&1
    echo "== exit $? after $((SECONDS - start)) s" >>"$out/sanitizer.log"
  done
done < <("$ladder" list --json | python3 -c '
import json, sys
for entry in json.load(sys.stdin):
    rungs = [r["name"] for r in entry["rungs"] if r["backend"] == "cuda" and r["runs_here"]]
    if rungs: print(entry["exercise"], ",".join(rungs))')
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitizer.log"
