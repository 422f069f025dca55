#!/usr/bin/env bash
# The device call of this experiment, from the repository root:
#   OUT=dir REV=commit bash reports/experiments/2026-11-25-h100-median-streams-direct/run.sh
set -u
b=build-gpu
{ cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_GIT_REVISION="${REV:-}" && cmake --build $b -j 16; } >/tmp/build.log 2>&1 ||
  { tail -30 /tmp/build.log; exit 1; }
$b/tests/ladder_tests --gtest_filter='*MedianFilter*:*SpotFinding*' >"$OUT/tests.log" 2>&1
tail -3 "$OUT/tests.log"
: >"$OUT/sanitizer.log"
for ex in median_filter spot_finding; do
  for tool in memcheck racecheck synccheck; do
    echo "== $tool $ex cuda_streams" >>"$OUT/sanitizer.log"
    compute-sanitizer --tool $tool --error-exitcode 9 $b/bench/ladder check $ex --variants cuda_streams >>"$OUT/sanitizer.log" 2>&1
    echo "== exit $?" >>"$OUT/sanitizer.log"
  done
done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/sanitizer.log"
uptime >"$OUT/load.txt"
$b/bench/ladder run median_filter --size large --variants cuda,cuda_streams --sweep size=3,7 --out "$OUT/median-large.json" >"$OUT/runs.log" 2>&1
$b/bench/ladder run median_filter --size large --variants cuda,cuda_streams --sweep size=3,7 --pinned --out "$OUT/median-large-pinned.json" >>"$OUT/runs.log" 2>&1
$b/bench/ladder run spot_finding --size large --variants cuda,cuda_streams --out "$OUT/spot-large.json" >>"$OUT/runs.log" 2>&1
uptime >>"$OUT/load.txt"
grep -E "^[a-z_]+ \(|cuda" "$OUT/runs.log"
