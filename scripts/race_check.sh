#!/usr/bin/env bash
# The OpenCL rungs of one exercise under Oclgrind's race detector: `ladder
# check` runs them on Oclgrind's simulated device (Debian's `oclgrind`, which
# scripts/bootstrap.sh installs), which follows every work-item and reports
# two of them touching one address without a barrier or an atomic between.
# PoCL runs a work-group's work-items one after another, so a kernel with
# such a race can pass `ladder check` there and still be wrong on a GPU.
#
#   scripts/race_check.sh EXERCISE [ladder check options: --track exercises, ...]
#
# LADDER (default build/release/bench/ladder) is the binary. Exit 0: the
# check passed and Oclgrind reported nothing; 1: the check failed or
# Oclgrind reported a race or an invalid access (its report is printed);
# 2: no such exercise, no OpenCL rung, or no oclgrind. Slow: every
# work-item is simulated. histogram and vector_add take seconds, labelling
# about half a minute, polygon_mask a minute; the larger check cases of
# convolution, kappa_sigma and primes take many minutes.
set -uo pipefail
exercise=${1:?usage: scripts/race_check.sh EXERCISE [ladder check options]}
shift
ladder=${LADDER:-build/release/bench/ladder}
command -v oclgrind >/dev/null || { echo "race_check: oclgrind is not installed (Debian: apt-get install oclgrind)" >&2; exit 2; }
[ -x "$ladder" ] || { echo "race_check: no ladder binary at $ladder (build it, or set LADDER)" >&2; exit 2; }

rungs=$("$ladder" list --json | python3 -c '
import json, sys
for entry in json.load(sys.stdin):
    if entry["exercise"] == sys.argv[1]:
        print(",".join(r["name"] for r in entry["rungs"] if r["backend"] == "opencl"))' "$exercise")
[ -n "$rungs" ] || { echo "race_check: no OpenCL rung in exercise '$exercise' (ladder list names them)" >&2; exit 2; }

# Oclgrind writes its reports to stderr (its --log option did not catch
# them in Oclgrind 21.10), between ladder's own lines.
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
echo "oclgrind --data-races: ladder check $exercise --variants $rungs $*"
oclgrind --data-races --max-errors 20 "$ladder" check "$exercise" --variants "$rungs" "$@" 2>"$errors"
status=$?
pattern='data race|Invalid (read|write)|divergence detected|Uninitialized value'
if grep -Eq "$pattern" "$errors"; then
  echo "Oclgrind reported $(grep -Ec "$pattern" "$errors") problem(s) (at most 20 are reported); the first:"
  head -40 "$errors"
  exit 1
fi
cat "$errors" >&2
echo "Oclgrind reported no race and no invalid access."
exit $(( status == 0 ? 0 : 1 ))
