#!/usr/bin/env bash
# The device call of this experiment, from the repository root (it also
# leaves build-gpu built for the reference run that follows it):
#   OUT=dir REV=commit bash reports/experiments/2026-11-25-h100-convolution-cuda-tiles/run.sh
set -u
b=build-gpu
{ cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_GIT_REVISION="${REV:-}" && cmake --build $b -j 16; } >/tmp/build.log 2>&1 ||
  { tail -30 /tmp/build.log; exit 1; }
$b/tests/ladder_tests --gtest_filter='*Convolution*:*MedianFilter*:*SpotFinding*' >"$OUT/tests.log" 2>&1
grep -E "^\[  (PASSED|FAILED|SKIPPED) " "$OUT/tests.log" | sort | uniq -c | head
: >"$OUT/sanitizer.log"
for tool in memcheck racecheck synccheck; do
  echo "== $tool convolution cuda_tiles" >>"$OUT/sanitizer.log"
  compute-sanitizer --tool $tool --error-exitcode 9 $b/bench/ladder check convolution --variants cuda_tiles >>"$OUT/sanitizer.log" 2>&1
  echo "== exit $?" >>"$OUT/sanitizer.log"
done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/sanitizer.log"
uptime >"$OUT/load.txt"
$b/bench/ladder run convolution --size workshop --variants opencl,cuda_tiles,cuda,cuda_unrolled --out "$OUT/convolution-workshop.json" >"$OUT/runs.log" 2>&1
uptime >>"$OUT/load.txt"
grep -E "^[a-z_]+ \(|  (opencl|cuda)" "$OUT/runs.log"
