#!/usr/bin/env bash
# The L2 eviction before each timed GPU repetition, by reading a buffer
# twice the L2's size (the new default) or by writing it
# (--evict-by-writing, every run up to 2026-11-26): one build, the GPU
# rungs of every exercise, the two ways interleaved, two rounds each; then
# what the histogram kernel reads and writes in DRAM after each way, by
# Nsight Compute with its own cache control off.
#
#   OUT=DIR bash reports/experiments/2026-11-26-h100-l2-eviction-by-reading/run.sh
set -uo pipefail
out=${OUT:?}
build=${BUILD:-/tmp/build-eviction}
ladder=$build/bench/ladder
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build "$build" --target ladder -j "$(nproc)"
} >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
echo "build done $(date -u +%T)"

# The eviction paths under memcheck: a timed run of a CUDA and an OpenCL rung, both ways.
: >"$out/sanitizer.log"
for way in "" --evict-by-writing; do
  echo "== memcheck: ladder run vector_add histogram --variants cuda,opencl $way" >>"$out/sanitizer.log"
  compute-sanitizer --tool memcheck --error-exitcode 9 "$ladder" run vector_add histogram --variants cuda,opencl \
    --size tiny --repetitions 3 --min-time 0.001 --host-bandwidth 100 $way --out /tmp/sanitize.json \
    >>"$out/sanitizer.log" 2>&1
  echo "== exit $?" >>"$out/sanitizer.log"
done
grep "== exit\|ERROR SUMMARY" "$out/sanitizer.log"

# Each exercise's GPU rungs (cuda and opencl, on the GPU).
"$ladder" list --json | python3 -c '
import json, sys
for entry in json.load(sys.stdin):
    rungs = [r["name"] for r in entry["rungs"] if r["backend"] in ("cuda", "opencl") and r["runs_here"]]
    if rungs: print(entry["exercise"], ",".join(rungs))' >"$out/gpu-rungs.txt"
cat "$out/gpu-rungs.txt"

{ echo "start $(date -u +%T)"; cat /proc/loadavg; } >"$out/load.txt"
for round in 1 2; do
  for way in reading writing; do
    flag=""; [ "$way" = writing ] && flag=--evict-by-writing
    mkdir -p "$out/$way-$round"
    while read -r exercise rungs; do
      "$ladder" run "$exercise" --variants "$rungs" --size workshop --time-budget 10 --host-bandwidth 100 $flag \
        --out "$out/$way-$round/$exercise.json" >"$out/$way-$round/$exercise.log" 2>&1 ||
        echo "run failed: $way $round $exercise"
    done <"$out/gpu-rungs.txt"
    for exercise in histogram vector_add; do
      "$ladder" run "$exercise" --variants cuda --size large --time-budget 10 --host-bandwidth 100 $flag \
        --out "$out/$way-$round/$exercise-large.json" >"$out/$way-$round/$exercise-large.log" 2>&1 ||
        echo "run failed: $way $round $exercise large"
    done
    echo "$way round $round done $(date -u +%T)"
  done
done
{ echo "end $(date -u +%T)"; cat /proc/loadavg; } >>"$out/load.txt"

# DRAM bytes of the histogram kernel after each way of evicting.
for way in reading writing; do
  flag=""; [ "$way" = writing ] && flag=--evict-by-writing
  ncu --cache-control none --clock-control none -k regex:histogram_shared -c 4 \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
    "$ladder" run histogram --variants cuda --repetitions 3 --min-time 0.001 --host-bandwidth 100 $flag \
    --out /tmp/ncu.json >"$out/ncu-histogram-$way.txt" 2>&1
done
grep -h "dram__bytes\|gpu__time" "$out"/ncu-histogram-*.txt | head -20
