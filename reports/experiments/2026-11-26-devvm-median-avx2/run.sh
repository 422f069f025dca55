#!/usr/bin/env bash
# The serial and openmp rungs at k = 3 and 5 on the workshop stack, and
# OpenCV's medianBlur on one thread on the same input, twice in turn.
# Run from the repository root after building build/release.
set -euo pipefail
here=reports/experiments/2026-11-26-devvm-median-avx2
ladder=build/release/bench/ladder
input=$(mktemp -d)
"$ladder" generate median_filter --out "$input" >/dev/null
uptime
for sitting in 1 2; do
  for k in 3 5; do
    "$ladder" run median_filter --variants serial,openmp --param size=$k --out "$input/k$k.json" | grep -E "^  (rung|serial|openmp)"
  done
  /usr/bin/python3 "$here/opencv_median.py" "$input/image.npy"
done
rm -rf "$input"
