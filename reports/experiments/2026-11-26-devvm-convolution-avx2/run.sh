#!/usr/bin/env bash
# convolution's serial and openmp rungs built for plain x86-64 (BEFORE, a
# copy of the ladder program of the commit before) and with the row loop
# compiled for the widest vector unit (build/release), and OpenCV's
# filter2D on one thread, on the workshop input, two rounds in turn.
# Run from the repository root: run.sh BEFORE
set -euo pipefail
here=reports/experiments/2026-11-26-devvm-convolution-avx2
before=${1:?usage: run.sh LADDER_BEFORE}
after=build/release/bench/ladder
input=$(mktemp -d)
"$after" generate convolution --out "$input" >/dev/null
uptime
for round in 1 2; do
  for which in before after; do
    ladder=$before; [ $which = after ] && ladder=$after
    echo "== $which, round $round"
    "$ladder" run convolution --variants serial,openmp --out "$input/$which.json" | grep -E "^  (rung|serial|openmp)"
  done
  /usr/bin/python3 "$here/opencv_filter2d.py" "$input/image.npy" "$input/kernel.npy"
done
rm -rf "$input"
