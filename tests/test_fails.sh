#!/usr/bin/env bash
# A command that must fail with a verdict: a non-zero exit, and a line of
# its output that matches PATTERN (a crash with no verdict does not count).
#
#   test_fails.sh PATTERN COMMAND...
pattern=$1
shift
output=$("$@" 2>&1)
code=$?
echo "$output"
[ "$code" != 0 ] || { echo "test_fails.sh: the command passed: $*"; exit 1; }
grep -Eq "$pattern" <<<"$output" || { echo "test_fails.sh: exit $code, but no line matches '$pattern'"; exit 1; }
echo "test_fails.sh: failed as it should (exit $code)"
