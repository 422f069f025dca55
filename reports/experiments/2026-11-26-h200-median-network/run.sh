#!/usr/bin/env bash
# The cuda_network rung against cuda on the GPU machine: build there, the median
# tests, compute-sanitizer over the new rung's check, then both rungs at
# k = 5 and 7 on the workshop and large stacks, in turn.
# Run from the repository root: run.sh OUTDIR REVISION
set -uo pipefail
out=${1:?usage: run.sh OUTDIR REVISION}
build=build-gpu
mkdir -p "$out"
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_GIT_REVISION="${2:-}" &&
    cmake --build "$build" -j "$(nproc)" --target ladder ladder_tests
} >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
"$build/tests/ladder_tests" --gtest_filter='*Median*' >"$out/tests.log" 2>&1
tail -3 "$out/tests.log"
ladder=$build/bench/ladder
"$ladder" check median_filter --variants cuda,cuda_network 2>&1 | tee "$out/check.log"
for tool in memcheck racecheck synccheck; do
  echo "== compute-sanitizer --tool $tool: ladder check median_filter --variants cuda_network"
  compute-sanitizer --tool "$tool" --error-exitcode 9 "$ladder" check median_filter --variants cuda_network 2>&1 |
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|pass|fail"
  echo "== exit ${PIPESTATUS[0]}"
done >"$out/sanitizer.log"
cat "$out/sanitizer.log"
for round in 1 2; do
  for size in workshop large; do
    for k in 5 7; do
      "$ladder" run median_filter --size "$size" --variants cuda,cuda_network --param size=$k \
        --out "$out/results-$size-k$k-$round.json" 2>&1 | grep -E "^  (rung|cuda)" | sed "s/^/$size k=$k round $round: /"
    done
  done
done | tee "$out/run.log"
