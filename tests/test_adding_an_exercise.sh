#!/usr/bin/env bash
# Adding an exercise: ladder_with_toy is `ladder` built with one more file,
# tests/toy_exercise.cpp (a problem and its two rungs), and nothing else.
# The toy exercise is listed, checked, run and reported like any other;
# `ladder` itself does not know it.
#
#   test_adding_an_exercise.sh LADDER_WITH_TOY LADDER
set -uo pipefail
toy=$1 ladder=$2
source "$(dirname "$0")/shell_test.sh"  # $work, $failures, expect

"$toy" list >"$work/list.txt" 2>&1
expect "listed, with its rungs" "^toy_double: y = 2x" "$work/list.txt"
expect "its serial rung listed" "^  serial +host +runs here" "$work/list.txt"
"$ladder" list >"$work/real-list.txt" 2>&1
if grep -q toy_double "$work/real-list.txt"; then echo "FAILED: ladder itself lists the toy"; failures=$((failures + 1)); else echo "ok: ladder itself does not list it"; fi

"$toy" check toy_double >"$work/check.txt" 2>&1 || { echo "FAILED: check exited $?"; failures=$((failures + 1)); }
expect "checked: both rungs pass every case" "^2 passed, 0 failed" "$work/check.txt"

"$toy" run toy_double --size tiny --min-time 0.005 --repetitions 3 --out "$work/run.json" >"$work/run.txt" 2>&1 ||
  { echo "FAILED: run exited $?"; cat "$work/run.txt"; failures=$((failures + 1)); }
expect "run: timed, with its speed-up" "^  serial +ok" "$work/run.txt"

if "$toy" report "$work/run.json" --out "$work/report" >"$work/report.txt" 2>&1; then
  expect "reported: its table" "toy_double" "$work/report/tables.md"
else
  status=$?
  if grep -q "matplotlib is not installed" "$work/report.txt"; then echo "skipped: the report needs matplotlib"; exit 77; fi
  echo "FAILED: report exited $status"; cat "$work/report.txt"; failures=$((failures + 1))
fi
exit $(( failures == 0 ? 0 : 1 ))
