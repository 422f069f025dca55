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

for exercise in histogram kappa_sigma convolution median_filter; do
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

# A rank that dies mid-run brings the job down: the run ends with an error
# instead of waiting for it for ever.
timeout 120 "$ladder" run histogram --size workshop --variants mpi --ranks 2 --min-time 30 --time-budget 60 \
  >"$work/killed.txt" 2>&1 &
job=$!
follower=""
for _ in $(seq 100); do  # the rank-1 process, by the rank Open MPI gives it
  for pid in $(pgrep -f "$ladder run histogram" || true); do
    if tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=1"; then follower=$pid; fi
  done
  [ -n "$follower" ] && break
  sleep 0.1
done
sleep 2  # into its timed repetitions
[ -n "$follower" ] && kill -9 "$follower"
wait $job
status=$?
if [ -n "$follower" ] && [ $status -ne 0 ] && [ $status -ne 124 ]; then
  echo "ok: killing rank 1 ends the run (exit $status), no hang"
else
  echo "FAILED: killing rank 1 (pid ${follower:-not found}): exit $status (124: it hung until the timeout)"
  cat "$work/killed.txt"; failures=$((failures + 1))
fi

# A bad rank count: one message, exit 2.
"$ladder" check histogram --variants mpi --ranks 0 >"$work/bad.txt" 2>&1
status=$?
expect "--ranks 0 is refused with exit 2 (got $status)" "give a number of MPI ranks" "$work/bad.txt"
[ $status -eq 2 ] || failures=$((failures + 1))

exit $(( failures == 0 ? 0 : 1 ))
