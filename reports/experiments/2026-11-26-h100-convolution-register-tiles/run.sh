#!/usr/bin/env bash
# On the GPU machine, from the repository root:
#   bash reports/experiments/2026-11-26-h100-convolution-register-tiles/run.sh REVISION
# Round 2: the variants (before/after the fill, other tile shapes), then
# ladder built for convolution alone: its tests, compute-sanitizer over
# `ladder check` of cuda_unrolled, and its CUDA rungs timed by the harness.
# (Round 1 ran the first variants.cu, with the cuobjdump counts and Nsight
# Compute sections in output-1.txt.)
set -u
here=reports/experiments/2026-11-26-h100-convolution-register-tiles
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
nvcc -O3 -std=c++20 -arch=sm_90 -I. -I$here $here/variants.cu -o /tmp/variants || exit 1
echo "# variants, twice"; /tmp/variants && /tmp/variants
build=/tmp/build
{ cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DLADDER_EXERCISES=convolution -DLADDER_EXERCISES_TRACK=OFF -DLADDER_GIT_REVISION="$1" &&
  cmake --build $build --target ladder ladder_tests -j 16; } >$OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "# tests"; $build/tests/ladder_tests --gtest_filter='*Convolution*' 2>&1 | tail -4
echo "# compute-sanitizer"
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 9 $build/bench/ladder check convolution --variants cuda_unrolled 2>&1 |
    grep -E "SUMMARY|cuda_unrolled" ; echo "$tool exit ${PIPESTATUS[0]}"
done
echo "# ladder run"
$build/bench/ladder run convolution --size workshop --variants cuda,cuda_tiles,cuda_unrolled,cuda_fft --replicates 3 \
  --out $OUT/results-rung-workshop.json 2>&1 | grep -E "cuda|spread" | head -12
$build/bench/ladder run convolution --size large --variants cuda,cuda_unrolled,cuda_fft --replicates 2 \
  --out $OUT/results-rung-large.json 2>&1 | grep -E "cuda|spread" | head -12
