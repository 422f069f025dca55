#!/usr/bin/env bash
# On the GPU machine, from the repository root:
#   bash reports/experiments/2026-11-26-h100-tests-shared-rung-bases/run.sh REVISION
# spot_finding's and kappa_sigma's CUDA rungs after their host side moved
# into shared base classes (DeviceStackRung, DeviceSkyRung): ladder built for
# those two exercises, their tests, compute-sanitizer over `ladder check` of
# their CUDA rungs, and one timed run at the workshop size.
set -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
build=/tmp/build
{ cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DLADDER_EXERCISES="spot_finding;kappa_sigma" -DLADDER_EXERCISES_TRACK=OFF -DLADDER_GIT_REVISION="$1" &&
  cmake --build $build --target ladder ladder_tests -j 16; } >$OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "# built at $(date -u +%T)"
$build/tests/ladder_tests --gtest_filter='*SpotFinding*:*KappaSigma*' >$OUT/tests.log 2>&1; echo "tests exit $?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/tests.log | sort | uniq -c | sort -rn | head -5; tail -3 $OUT/tests.log
ladder=$build/bench/ladder
run_sanitizer() {
  compute-sanitizer --tool $1 --error-exitcode 9 $ladder check $2 --variants $3 >>$OUT/sanitizer.log 2>&1
  echo "$1 $2 ($3): exit $?"
}
run_sanitizer memcheck spot_finding cuda,cuda_sliding,cuda_streams
run_sanitizer memcheck kappa_sigma cuda,cuda_persistent
echo "# timed run at $(date -u +%T)"
$ladder run spot_finding --size workshop --variants cuda,cuda_sliding,cuda_streams \
  --out $OUT/results-spot_finding.json >$OUT/run.log 2>&1; echo "run exit $?"
$ladder run kappa_sigma --size workshop --variants cuda,cuda_persistent \
  --out $OUT/results-kappa_sigma.json >>$OUT/run.log 2>&1; echo "run exit $?"
grep -E "^  cuda" $OUT/run.log
for tool in racecheck synccheck; do
  run_sanitizer $tool spot_finding cuda,cuda_sliding,cuda_streams
  run_sanitizer $tool kappa_sigma cuda,cuda_persistent
done
grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $OUT/sanitizer.log | sort | uniq -c
echo "# ended at $(date -u +%T)"
