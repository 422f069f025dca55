#!/usr/bin/env bash
# Kernels that write past their buffers, on PoCL (issue 49):
#  1. a write just past the end lands in the device buffer's guard zone,
#     which the harness checks after each download: the rung's FAIL says so;
#  2. `ladder check` runs each OpenCL rung's check in a child process: a
#     kernel that writes far outside its buffers crashes it (PoCL's heap,
#     or memory not mapped at all), and the check still reports it as that
#     rung's FAIL, with the case it was on, keeps its header line when
#     piped, and exits 1, not with the crash's signal.
#
#   test_check_isolation.sh SOURCE_DIR LADDER
set -uo pipefail
source_dir=$1 ladder=$2
source "$(dirname "$0")/shell_test.sh"  # $work, $failures, expect
if "$ladder" list | grep -Eq "^  opencl +opencl +cannot run here"; then echo "skipped: no OpenCL device"; exit 77; fi

# 1. primes_trial without its bounds test: the work-items of the last
#    group past n write their flags into the guard zone.
mkdir -p "$work/guard/primes"
sed 's/if (index >= n) return;//' "$source_dir/kernels/primes/primes.cl" >"$work/guard/primes/primes.cl"
if cmp -s "$source_dir/kernels/primes/primes.cl" "$work/guard/primes/primes.cl"; then
  echo "FAILED: kernels/primes/primes.cl no longer has the bounds test this test removes"; exit 1
fi
LADDER_KERNEL_DIR="$work/guard" "$ladder" check primes --variants opencl_trial >"$work/guard.txt" 2>&1
status=$?
expect "a write past the end of a device buffer is the rung's FAIL, with the case, what it catches and how far" \
  "^  opencl_trial +FAIL case n=1 seed=2 \\(catches: [^)]+\\): a kernel wrote past the end of device buffer 1 of 1 .*: up to 255 bytes past its end" \
  "$work/guard.txt"
[ "$status" = 1 ] || { echo "FAILED: exit status $status, not 1"; failures=$((failures + 1)); }

# 2. vector_add's kernel with its four-float store 4 GiB past the end of c.
mkdir -p "$work/kernels/vector_add"
sed 's/vstore4(vload4(group, a) + vload4(group, b), group, c);/vstore4(vload4(group, a) + vload4(group, b), group + (1u << 28), c);/' \
  "$source_dir/kernels/vector_add/vector_add.cl" >"$work/kernels/vector_add/vector_add.cl"
if cmp -s "$source_dir/kernels/vector_add/vector_add.cl" "$work/kernels/vector_add/vector_add.cl"; then
  echo "FAILED: kernels/vector_add/vector_add.cl no longer has the store this test moves"; exit 1
fi
LADDER_KERNEL_DIR="$work/kernels" "$ladder" check vector_add --variants serial,opencl | cat >"$work/out.txt"
status=${PIPESTATUS[0]}
expect "the header line survives the crash, piped" "^vector_add, solutions track:" "$work/out.txt"
expect "the other rung keeps its verdict" "^  serial +pass" "$work/out.txt"
# (PoCL's heap gives way: a crash. A GPU's driver may catch the write
# instead and fail the next call, e.g. NVIDIA's CL_INVALID_COMMAND_QUEUE.)
expect "the crash is opencl's FAIL, with its case, what it catches and the signal or the failed call" \
  "^  opencl +FAIL case n=[0-9]+ seed=[0-9]+ \\(catches: [^)]+\\): (the check of opencl ended without a verdict, killed by signal|OpenCL call .* failed)" \
  "$work/out.txt"
expect "and the summary counts it" "^1 passed, 1 failed" "$work/out.txt"
[ "$status" = 1 ] || { echo "FAILED: exit status $status, not 1"; failures=$((failures + 1)); }
exit $((failures == 0 ? 0 : 1))
