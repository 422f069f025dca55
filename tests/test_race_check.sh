#!/usr/bin/env bash
# `ladder check --race`, Oclgrind's race detector, both ways (issue 21): the
# solutions' OpenCL kernels are reported clean, and the histogram kernel
# with its local atomic replaced by a plain increment (the mistake PoCL
# lets through) is reported as a data race on that line.
#
#   test_race_check.sh SOURCE_DIR LADDER [EXERCISE...]
#
# Without EXERCISE names: the exercises whose check under Oclgrind takes at
# most about a minute on 2 cores, then the racy kernel. With names: only
# those solutions' kernels (CTest runs the slow ones as a second test beside
# the first: kappa_sigma, about 5 minutes, and median_filter, 2 to 3).
set -uo pipefail
source_dir=$1 ladder=$2
shift 2
command -v oclgrind >/dev/null || { echo "skipped: oclgrind is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
named=$#
exercises=("$@")
[ "$named" -gt 0 ] || exercises=(histogram vector_add batched_matmul primes spot_finding labelling polygon_mask convolution)

for exercise in "${exercises[@]}"; do
  if "$ladder" check "$exercise" --race >"$work/$exercise.txt" 2>&1; then
    echo "ok: $exercise's OpenCL rungs are clean"
  else
    echo "FAILED: $exercise's OpenCL rungs:"; cat "$work/$exercise.txt"; failures=$((failures + 1))
  fi
done

[ "$named" -eq 0 ] || exit $(( failures == 0 ? 0 : 1 ))

# Under the simulator the largest cases are left out, and the line says so
# (primes at 10^7: 10 MB of flags; convolution's 63×63 and 67×65 kernels,
# 160 and 70 million operations; the check on a device covers them).
if grep -Eq "^  opencl +pass \(9 inputs; 1 left out, over 4 MiB of traffic or 16 Mi operations each, too large to simulate\)" "$work/primes.txt"; then
  echo "ok: the case too large to simulate is left out, and named"
else
  echo "FAILED: primes under Oclgrind:"; cat "$work/primes.txt"; failures=$((failures + 1))
fi
if grep -Eq "^  opencl +pass \(11 inputs; 2 left out, over 4 MiB of traffic or 16 Mi operations each" "$work/convolution.txt"; then
  echo "ok: convolution's two largest kernels are left out, and named"
else
  echo "FAILED: convolution under Oclgrind:"; cat "$work/convolution.txt"; failures=$((failures + 1))
fi

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
