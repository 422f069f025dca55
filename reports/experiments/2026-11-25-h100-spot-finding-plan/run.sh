#!/usr/bin/env bash
# The device call of this check, from the repository root:
#   OUT=dir REV=commit bash reports/experiments/2026-11-25-h100-spot-finding-plan/run.sh
set -u
b=build-gpu
{ cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_GIT_REVISION="${REV:-}" &&
    cmake --build $b -j 16 --target ladder ladder_tests; } >/tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$b/tests/ladder_tests --gtest_filter='*SpotFinding*' >"$OUT/tests.log" 2>&1
grep -E "^\[  (PASSED|FAILED|SKIPPED) " "$OUT/tests.log"
: >"$OUT/sanitizer.log"
for tool in memcheck racecheck synccheck; do
  echo "== $tool spot_finding cuda,cuda_sliding,cuda_streams" >>"$OUT/sanitizer.log"
  compute-sanitizer --tool $tool --error-exitcode 9 $b/bench/ladder check spot_finding \
    --variants cuda,cuda_sliding,cuda_streams >>"$OUT/sanitizer.log" 2>&1
  echo "== exit $?" >>"$OUT/sanitizer.log"
done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/sanitizer.log"
$b/bench/ladder run spot_finding --variants cuda,cuda_sliding,cuda_streams --out "$OUT/spot-workshop.json" >"$OUT/runs.log" 2>&1
grep -E "  cuda" "$OUT/runs.log"
