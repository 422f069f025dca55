#!/usr/bin/env bash
# `ladder check --race`, Oclgrind's race detector, both ways (issue 21): the solutions' OpenCL
# kernels are reported clean, and the histogram kernel with its local
# atomic replaced by a plain increment (the mistake PoCL lets through) is
# reported as a data race on that line. The exercises here are those whose
# check under Oclgrind takes at most about a minute and a half on 2 cores
# (convolution's takes about 5 minutes, kappa_sigma's about 6, primes'
# over 15: they are checked by hand, `ladder check EXERCISE --race`).
#
#   test_race_check.sh SOURCE_DIR LADDER
set -uo pipefail
source_dir=$1 ladder=$2
command -v oclgrind >/dev/null || { echo "skipped: oclgrind is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

for exercise in histogram vector_add batched_matmul spot_finding labelling polygon_mask; do
  if "$ladder" check "$exercise" --race >"$work/$exercise.txt" 2>&1; then
    echo "ok: $exercise's OpenCL rungs are clean"
  else
    echo "FAILED: $exercise's OpenCL rungs:"; cat "$work/$exercise.txt"; failures=$((failures + 1))
  fi
done

# The racy kernel, through LADDER_KERNEL_DIR (which overrides the embedded source).
mkdir -p "$work/kernels/histogram"
sed 's/atomic_inc(&local_counts\[values\[i\]\])/local_counts[values[i]]++/' \
  "$source_dir/kernels/histogram/histogram.cl" >"$work/kernels/histogram/histogram.cl"
if cmp -s "$source_dir/kernels/histogram/histogram.cl" "$work/kernels/histogram/histogram.cl"; then
  echo "FAILED: the histogram kernel no longer has the atomic_inc this test removes"; exit 1
fi
LADDER_KERNEL_DIR="$work/kernels" "$ladder" check histogram --race >"$work/racy.txt" 2>&1
status=$?
if [ $status = 1 ] && grep -q "data race at local memory" "$work/racy.txt" && grep -q "local_counts\[values\[i\]\]++" "$work/racy.txt"; then
  echo "ok: the increment without an atomic is reported as a race on its line"
else
  echo "FAILED: the racy histogram kernel (exit $status):"; cat "$work/racy.txt"; failures=$((failures + 1))
fi
if grep -q "cannot show a missing" "$work/racy.txt"; then
  echo "ok: the output says plainly that PoCL alone cannot show a missing atomic"
else
  echo "FAILED: no word on what PoCL cannot show:"; cat "$work/racy.txt"; failures=$((failures + 1))
fi
exit $(( failures == 0 ? 0 : 1 ))
