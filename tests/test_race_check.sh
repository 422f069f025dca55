#!/usr/bin/env bash
# `ladder check --race` (issues 21 and 49): each OpenCL rung on Oclgrind's
# simulated device, on the problem's small simulator cases, untimed, with
# one verdict per rung (race, out of bounds, FAIL or pass).
#
#   test_race_check.sh SOURCE_DIR LADDER clean EXERCISE
#       the solutions' OpenCL kernels of EXERCISE pass (seconds each)
#   test_race_check.sh SOURCE_DIR LADDER planted
#       kernels with a planted mistake each get their verdict, naming the
#       line: the histogram without its local atomic (the mistake PoCL lets
#       through) a race, vector_add and primes_trial without their bounds
#       tests out of bounds, the histogram without zeroing its local counts
#       a FAIL
set -uo pipefail
source_dir=$1 ladder=$(realpath "$2") mode=$3
command -v oclgrind >/dev/null || { echo "skipped: oclgrind is not installed"; exit 77; }
source "$(dirname "$0")/shell_test.sh"  # $work, $failures, expect
expect_status() {  # expect_status DESCRIPTION WANTED GOT FILE
  if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAILED: $1 (exit $3, not $2):"; cat "$4"; failures=$((failures + 1)); fi
}

if [ "$mode" = clean ]; then
  exercise=$4
  "$ladder" check "$exercise" --race >"$work/out.txt" 2>&1
  expect_status "$exercise's OpenCL rungs pass on Oclgrind" 0 $? "$work/out.txt"
  expect "and each has a verdict line" "^  opencl[a-z_]* +pass \([0-9]+ inputs\)" "$work/out.txt"
  exit $((failures == 0 ? 0 : 1))
fi

# plant KERNEL SED_EXPRESSION: the solution's kernels/KERNEL with one change, in $work/kernels
# (LADDER_KERNEL_DIR overrides the embedded sources).
plant() {
  mkdir -p "$work/kernels/$(dirname "$1")"
  sed "$2" "$source_dir/kernels/$1" >"$work/kernels/$1"
  if cmp -s "$source_dir/kernels/$1" "$work/kernels/$1"; then
    echo "FAILED: kernels/$1 no longer has what this test changes ($2)"; exit 1
  fi
}

# A race: the local histogram's increment without its atomic. PoCL gets the
# right counts (one work-item after another), so only Oclgrind can tell.
plant histogram/histogram.cl 's/atomic_inc(&local_counts\[values\[i\]\])/local_counts[values[i]]++/'
for track in solutions exercises; do
  LADDER_KERNEL_DIR="$work/kernels" "$ladder" check histogram --race --track $track >"$work/racy.txt" 2>&1
  expect_status "the racy histogram ($track track) fails" 1 $? "$work/racy.txt"
  expect "its verdict is a race on the increment's line, with the case" \
    "^  opencl +race: .*histogram/histogram.cl line [0-9]+: .*local_counts\[values\[i\]\]\+\+; \(.*data race.*; case [a-z]" \
    "$work/racy.txt"
  expect "and the summary counts it as failed" "^0 passed, 1 failed" "$work/racy.txt"
done
# The same from a folder the kernels do not lie below, inside the system's
# temporary folder (where Oclgrind names files relative to a folder of its
# own, and where a fresh clone often lies): the verdict still reads the line.
mkdir -p "$work/elsewhere"
(cd "$work/elsewhere" && LADDER_KERNEL_DIR="$work/kernels" "$ladder" check histogram --race >"$work/racy-elsewhere.txt" 2>&1)
expect "from another folder, the race's verdict still reads its line" \
  "^  opencl +race: .*histogram/histogram.cl line [0-9]+: .*local_counts\[values\[i\]\]\+\+;" "$work/racy-elsewhere.txt"
# Oclgrind reports a race for every pair of work-items; the place is printed once.
if [ "$(grep -c "^in case " "$work/racy.txt")" = 1 ]; then
  echo "ok: the race's report is printed once"
else
  echo "FAILED: the race's report is printed more than once:"; cat "$work/racy.txt"; failures=$((failures + 1))
fi
expect "the output says plainly that PoCL alone cannot show a missing atomic" "cannot show a missing" "$work/racy.txt"

# Out of bounds: vector_add's last work-items store four floats whether or
# not they lie inside the arrays.
rm -rf "$work/kernels"
plant vector_add/vector_add.cl 's/if (first + 3 < n) {/if (true) {/'
LADDER_KERNEL_DIR="$work/kernels" "$ladder" check vector_add --race >"$work/unbounded.txt" 2>&1
expect_status "vector_add without its bounds test fails" 1 $? "$work/unbounded.txt"
expect "its verdict is out of bounds, on the line with the load and store" \
  "^  opencl +out of bounds: .*vector_add/vector_add.cl line [0-9]+: vstore4\(vload4\(group, a\)" "$work/unbounded.txt"

# The same for a buffer the harness guards on PoCL (OpenClRung::device_buffer):
# on Oclgrind it has no guard zone, which would hide the write from it.
rm -rf "$work/kernels"
plant primes/primes.cl 's/if (index >= n) return;//'
LADDER_KERNEL_DIR="$work/kernels" "$ladder" check primes --race --variants opencl_trial >"$work/unguarded.txt" 2>&1
expect_status "primes_trial without its bounds test fails" 1 $? "$work/unguarded.txt"
expect "its verdict is out of bounds, on the line of the store" \
  "^  opencl_trial +out of bounds: .*primes/primes.cl line [0-9]+: flags\[k\] = prime;" "$work/unguarded.txt"

# A read of values never written: the local counts left unzeroed.
rm -rf "$work/kernels"
plant histogram/histogram.cl '/local_counts\[bin\] = 0;/d'
LADDER_KERNEL_DIR="$work/kernels" "$ladder" check histogram --race >"$work/unzeroed.txt" 2>&1
expect_status "the histogram with unzeroed local counts fails" 1 $? "$work/unzeroed.txt"
expect "its verdict is FAIL with Oclgrind's uninitialised value, where it was used" \
  "^  opencl +FAIL: .*histogram/histogram.cl line [0-9]+: .*\(Uninitialized value" "$work/unzeroed.txt"
if grep -q "no race and no invalid access" "$work/unzeroed.txt" "$work/unbounded.txt" "$work/racy.txt"; then
  echo "FAILED: a clean bill printed after Oclgrind's reports"; failures=$((failures + 1))
fi

exit $((failures == 0 ? 0 : 1))
