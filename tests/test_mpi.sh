#!/usr/bin/env bash
# The MPI rungs on 1, 2 and 3 ranks (an odd count, so that the parts differ
# in size): `ladder check` passes them against the reference, `ladder run`
# times them and names the ranks, and a bad rank count is refused.
#
#   test_mpi.sh LADDER
set -uo pipefail
ladder=$1
command -v mpirun >/dev/null || { echo "skipped: mpirun is not installed (Debian: openmpi-bin)"; exit 77; }
# Open MPI as root (CI, containers) needs its consent; NVLink multicast stays off wherever NCCL may run.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
expect() {  # expect DESCRIPTION PATTERN FILE
  if grep -Eq -- "$2" "$3"; then echo "ok: $1"; else echo "FAILED: $1 (no /$2/ in:)"; cat "$3"; failures=$((failures + 1)); fi
}

for exercise in histogram kappa_sigma; do
  for ranks in 1 2 3; do
    timeout 120 "$ladder" check "$exercise" --variants mpi --ranks "$ranks" >"$work/check-$ranks.txt" 2>&1
    status=$?
    expect "$exercise mpi on $ranks rank(s): check passes (exit $status)" "^  mpi +pass" "$work/check-$ranks.txt"
    [ $status -eq 0 ] || { echo "FAILED: exit $status"; failures=$((failures + 1)); }
  done
  timeout 120 "$ladder" run "$exercise" --size tiny --variants serial,mpi --ranks 2 --min-time 0.01 \
    --repetitions 3 --out "$work/run.json" >"$work/run.txt" 2>&1
  status=$?
  [ $status -eq 0 ] || { echo "FAILED: ladder run --ranks 2 exited $status"; cat "$work/run.txt"; failures=$((failures + 1)); }
  if python3 - "$work/run.json" <<'PY'
import json, sys
rows = {row["rung"]: row for entry in json.load(open(sys.argv[1]))["results"] for row in entry["rungs"]}
row = rows["mpi"]
assert row["status"] == "ok", row
assert row["timings"]["compute"]["median_s"] > 0, row
assert row["device"].startswith("2 MPI ranks"), row["device"]
PY
  then echo "ok: $exercise mpi is timed on 2 ranks, and its row says so"; else echo "FAILED: the run's mpi row"; failures=$((failures + 1)); fi
done

# A bad rank count: one message, exit 2.
"$ladder" check histogram --variants mpi --ranks 0 >"$work/bad.txt" 2>&1
status=$?
expect "--ranks 0 is refused with exit 2 (got $status)" "give a number of MPI ranks" "$work/bad.txt"
[ $status -eq 2 ] || failures=$((failures + 1))

exit $(( failures == 0 ? 0 : 1 ))
