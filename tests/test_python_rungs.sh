#!/usr/bin/env bash
# Every Python rung of an exercise passes every check case (issue 70),
# as `ladder check` runs them, beside the C++ rungs: on this machine the
# CPU ones (pure Python, NumPy, Numba, Cython, PyOpenCL on PoCL) must pass;
# only a rung for a CUDA GPU may be skipped, and only for want of one.
#
#   test_python_rungs.sh LADDER EXERCISE
set -uo pipefail
ladder=$1 exercise=$2
source "$(dirname "$0")/shell_test.sh"  # $work, $failures, expect
rungs=$("$ladder" list --json | python3 -c "
import json, sys
for entry in json.load(sys.stdin):
    if entry['exercise'] == '$exercise':
        print(','.join(r['name'] for r in entry['rungs'] if r['backend'] == 'python'))")
if [ -z "$rungs" ]; then echo "FAILED: $exercise has no Python rung"; exit 1; fi
out=$work/check.txt
"$ladder" check "$exercise" --variants "$rungs" >"$out" 2>&1
status=$?
cat "$out"
[ $status -eq 0 ] || { echo "FAILED: the check's exit status is $status"; failures=$((failures + 1)); }
for rung in ${rungs//,/ }; do
  if grep -Eq "^  $rung +pass \(" "$out"; then
    echo "ok: $rung passes"
  elif grep -Eq "^  $rung +skipped \(.*(NVIDIA GPU|CUDA)" "$out"; then
    echo "ok: $rung is skipped: no GPU for it here"
  else
    echo "FAILED: $rung neither passes nor is skipped for want of a GPU"; failures=$((failures + 1))
  fi
done
exit $((failures == 0 ? 0 : 1))
