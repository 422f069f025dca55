#!/usr/bin/env bash
# On the GPU machine, from the repository root:
#   bash reports/experiments/2026-11-26-h100-median-kernel-choice/run.sh REVISION
# median_filter's CUDA rungs after the kernel choice became a MedianKernel
# (it was a bool): ladder built for median_filter alone, its tests, one
# timed run of cuda and cuda_network at k = 7 (the network must still be
# the faster), then compute-sanitizer memcheck over `ladder check`.
set -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
build=/tmp/build
{ cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DLADDER_EXERCISES=median_filter -DLADDER_EXERCISES_TRACK=OFF -DLADDER_GIT_REVISION="$1" &&
  cmake --build $build --target ladder ladder_tests -j 16; } >$OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "# built at $(date -u +%T)"
$build/tests/ladder_tests --gtest_filter='*MedianFilter*' >$OUT/tests.log 2>&1; echo "tests exit $?"
grep -E "^\[  (PASSED|FAILED) " $OUT/tests.log; grep -c "^\[  SKIPPED \] Rungs" $OUT/tests.log
$build/bench/ladder run median_filter --size workshop --param size=7 --variants cuda,cuda_network --min-time 0.05 \
  --out $OUT/results-k7.json >$OUT/run.log 2>&1; echo "run exit $?"
grep -E "^  cuda" $OUT/run.log
compute-sanitizer --tool memcheck --error-exitcode 9 $build/bench/ladder check median_filter \
  --variants cuda,cuda_network,cuda_streams >$OUT/sanitizer.log 2>&1; echo "memcheck exit $?"
grep -E "pass|fail|ERROR SUMMARY" $OUT/sanitizer.log
echo "# ended at $(date -u +%T)"
