#!/usr/bin/env bash
# On the H100 machine: histogram's cuda rung with one launch a call (two sets
# of counts, the next one zeroed by this call's kernel; at least 8 loads per
# thread) against the rung before it (memset, then the kernel, on every
# resident block), built from the same tree, interleaved new/old/new/old.
# .ab/ (carried, ignored) holds the two files of the rung before.
#   reports/experiments/2026-11-25-h100-histogram-one-launch/run.sh OUTDIR
set -uo pipefail
out=${1:?usage: run.sh OUTDIR}
mkdir -p "$out"
build=build-gpu
cp solutions/histogram/cuda.cu .ab/cuda.cu.new
cp kernels/histogram/histogram_shared.cuh .ab/histogram_shared.cuh.new
use() {  # new | old
  cp ".ab/cuda.cu.$1" solutions/histogram/cuda.cu
  cp ".ab/histogram_shared.cuh.$1" kernels/histogram/histogram_shared.cuh
  cmake --build "$build" -j "$(nproc)" --target ladder >>"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_GIT_REVISION="${LADDER_GIT_REVISION:-}" >"$out/build.log" 2>&1
ladder=$build/bench/ladder
use new
"$ladder" check histogram >"$out/check-new.log" 2>&1; echo "check (new): exit $?"
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool "$tool" --error-exitcode 9 "$ladder" check histogram --variants cuda >>"$out/sanitizer-new.log" 2>&1
  echo "compute-sanitizer $tool (new): exit $?"
done
for round in 1 2; do
  for version in new old; do
    use "$version"
    for size in workshop large; do
      "$ladder" run histogram --size "$size" --variants cuda_atomics,cuda --out "$out/results-$size-$version-$round.json" \
        >"$out/run-$size-$version-$round.log" 2>&1
      echo "$version $round $size: $(grep -E '^  cuda ' "$out/run-$size-$version-$round.log")"
    done
  done
done
use new
