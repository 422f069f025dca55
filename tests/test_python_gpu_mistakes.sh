#!/usr/bin/env bash
# The GPU Python steps' mistakes are verdicts (issue 70), on a machine with
# an NVIDIA GPU and the CUDA Python packages (scripts/gpu_python_rungs.sh
# runs it there; elsewhere it exits 77, skipped): a participant's folder
# (LADDER_EXERCISES_PYTHON) with the solutions' primes and histogram steps,
# each with the mistake of its shape planted, each in a folder of its own: a
# grid of too few blocks, a count that is not atomic, a barrier left out.
#
#   test_python_gpu_mistakes.sh SOURCE_DIR LADDER
set -uo pipefail
source_dir=$1 ladder=$2
source "$(dirname "$0")/shell_test.sh"  # $work, $failures, expect
"$ladder" list >"$work/list.txt" 2>&1  # (grep -q on a pipe would end ladder early: pipefail)
if ! grep -Eq "^  python_cupy +python +runs here" "$work/list.txt"; then
  echo "skipped: no GPU Python rung runs here"; exit 77
fi
plant_in() {  # plant_in FOLDER FILE (under solutions/ or kernels/) TARGET FROM TO
  mkdir -p "$(dirname "$work/$1/$3")"
  python3 - "$source_dir/$2" "$work/$1/$3" "$4" "$5" <<'PY' || { echo "FAILED: cannot plant $3"; exit 1; }
import sys
source, target, old, new = sys.argv[1:5]
text = open(source).read()
if old not in text:
    sys.exit(f"{source} no longer holds {old!r}")
open(target, "w").write(text.replace(old, new, 1))
PY
}
# Each mistake in a participant's folder of its own (LADDER_EXERCISES_PYTHON).
# primes: the last, partial block left out of the grid.
plant_in too_few_blocks solutions/primes/python_numba_cuda.py primes/python_numba_cuda.py \
  "self.blocks = -(-self.flags.size // THREADS_PER_BLOCK)" "self.blocks = self.flags.size // THREADS_PER_BLOCK"
# histogram: the solution's host side, with the kernel's merge not atomic (the lesson's bug) ...
mkdir -p "$work/not_atomic/histogram" && cp "$source_dir/solutions/histogram/python_cupy.py" "$work/not_atomic/histogram/"
plant_in not_atomic kernels/histogram/histogram_shared.cuh histogram/kernels/histogram_shared.cuh \
  "if (sum != 0) atomicAdd(&counts[bin], sum);" "if (sum != 0) counts[bin] += sum;"
# ... and with the barrier before the merge left out: a warp sums its bins while others still count.
mkdir -p "$work/no_barrier/histogram" && cp "$source_dir/solutions/histogram/python_cupy.py" "$work/no_barrier/histogram/"
plant_in no_barrier kernels/histogram/histogram_shared.cuh histogram/kernels/histogram_shared.cuh \
  "__syncthreads();  // every value counted before the merge reads the table" "// (no barrier)"
check_planted() {  # check_planted FOLDER EXERCISE RUNG
  LADDER_EXERCISES_PYTHON=$work/$1 timeout 300 "$ladder" check "$2" --track exercises --variants "$3" \
    >"$work/$1.txt" 2>&1
  cat "$work/$1.txt"
}
check_planted too_few_blocks primes python_numba_cuda
check_planted not_atomic histogram python_cupy
check_planted no_barrier histogram python_cupy
expect "primes: too few blocks fail, naming the first number left unwritten" \
  "^  python_numba_cuda +FAIL case .*seed=[0-9]+.*: output 'flags' index [0-9]+: expected" "$work/too_few_blocks.txt"
expect "histogram: a merge that is not atomic fails on a case" "^  python_cupy +FAIL case .*seed=[0-9]+" "$work/not_atomic.txt"
expect "histogram: a barrier left out fails on a case" "^  python_cupy +FAIL case .*seed=[0-9]+" "$work/no_barrier.txt"
exit $((failures == 0 ? 0 : 1))
