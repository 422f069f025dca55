#!/usr/bin/env bash
# The GPU Python steps' mistakes are verdicts (issue 70), on a machine with
# an NVIDIA GPU and the CUDA Python packages (scripts/gpu_python_rungs.sh
# runs it there; elsewhere it exits 77, skipped): a participant's folder
# (LADDER_EXERCISES_PYTHON) with the solutions' primes and histogram steps,
# each with the mistake of its shape planted: a grid of too few blocks, a
# count that is not atomic, a barrier left out.
#
#   test_python_gpu_mistakes.sh SOURCE_DIR LADDER
set -uo pipefail
source_dir=$1 ladder=$2
source "$(dirname "$0")/shell_test.sh"  # $work, $failures, expect
"$ladder" list >"$work/list.txt" 2>&1  # (grep -q on a pipe would end ladder early: pipefail)
if ! grep -Eq "^  python_cupy +python +runs here" "$work/list.txt"; then
  echo "skipped: no GPU Python rung runs here"; exit 77
fi
plant_in() {  # plant_in EXERCISE FILE (under solutions/ or kernels/) TARGET FROM TO
  mkdir -p "$(dirname "$work/participant/$1/$3")"
  python3 - "$source_dir/$2" "$work/participant/$1/$3" "$4" "$5" <<'PY' || { echo "FAILED: cannot plant $3"; exit 1; }
import sys
source, target, old, new = sys.argv[1:5]
text = open(source).read()
if old not in text:
    sys.exit(f"{source} no longer holds {old!r}")
open(target, "w").write(text.replace(old, new, 1))
PY
}
# primes: the last, partial block left out of the grid.
plant_in primes solutions/primes/python_numba_cuda.py python_numba_cuda.py \
  "self.blocks = -(-self.flags.size // THREADS_PER_BLOCK)" "self.blocks = self.flags.size // THREADS_PER_BLOCK"
# histogram: the solution's host side, with the kernel's merge not atomic (the lesson's bug) ...
mkdir -p "$work/participant/histogram" && cp "$source_dir/solutions/histogram/python_cupy.py" "$work/participant/histogram/"
plant_in histogram kernels/histogram/histogram_shared.cuh kernels/histogram_shared.cuh \
  "if (sum != 0) atomicAdd(&counts[bin], sum);" "if (sum != 0) counts[bin] += sum;"
out=$work/check.txt
for exercise in primes histogram; do
  LADDER_EXERCISES_PYTHON=$work/participant timeout 300 "$ladder" check "$exercise" --track exercises \
    --variants "$(basename "$work"/participant/$exercise/python_*.py .py)" >"$work/$exercise.txt" 2>&1
  cat "$work/$exercise.txt"
done
expect "primes: too few blocks fail, naming the first number left unwritten" \
  "^  python_numba_cuda +FAIL case .*seed=[0-9]+.*: output 'flags' index [0-9]+: expected" "$work/primes.txt"
expect "histogram: a merge that is not atomic fails on a case" "^  python_cupy +FAIL case .*seed=[0-9]+" "$work/histogram.txt"
exit $((failures == 0 ? 0 : 1))
