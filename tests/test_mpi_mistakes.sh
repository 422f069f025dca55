#!/usr/bin/env bash
# An MPI mistake is a verdict (issue 58). `ladder` built with the solutions'
# mpi rungs copied and one classic mistake planted in each (tests/CMakeLists.txt,
# ladder_plant_mpi), checked as a participant would, on 2 and 3 ranks: each
# gets one verdict line naming the rung, the case and the cause, within 60 s,
# counted as failed; nothing hangs, no process is left, and none of the
# launcher's help text reaches the participant.
#
#   test_mpi_mistakes.sh LADDER_WITH_PLANTED_MPI
set -uo pipefail
ladder=$1
command -v mpirun >/dev/null || { echo "skipped: mpirun is not installed (Debian: openmpi-bin)"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAILED: $1"; [ -n "${2:-}" ] && cat "$2"; failures=$((failures + 1)); }
# The launcher's own words: Open MPI's help texts, its abort notices, its separators.
launcher='mpirun|Open MPI|MPI_ABORT|Primary job|ORTE|^-{20,}|exited on signal|errorcode'

# check_mistake EXERCISE RUNG RANKS PATTERN [OPTION...]: one verdict line matching PATTERN, exit 1, in time.
check_mistake() {
  local exercise=$1 rung=$2 ranks=$3 pattern=$4 out="$work/$2-$3.txt"
  shift 4
  local start=$SECONDS
  timeout 120 "$ladder" check "$exercise" --track exercises --variants "$rung" --ranks "$ranks" "$@" >"$out" 2>&1
  local status=$? took=$((SECONDS - start))
  if [ $status -ne 1 ]; then fail "$rung on $ranks ranks: exit $status, not 1" "$out"; return; fi
  if [ $took -gt 60 ]; then fail "$rung on $ranks ranks: the verdict took $took s (at most 60)" "$out"; return; fi
  grep -Eq -- "^  $rung +$pattern" "$out" || { fail "$rung on $ranks ranks: no verdict /$pattern/" "$out"; return; }
  grep -Eq "^0 passed, 1 failed" "$out" || { fail "$rung on $ranks ranks: the summary does not count it" "$out"; return; }
  if grep -Eq "$launcher" "$out"; then fail "$rung on $ranks ranks: the launcher's words reach the participant" "$out"; return; fi
  if pgrep -f "$ladder check $exercise" >/dev/null; then fail "$rung on $ranks ranks: processes left behind"; pkill -9 -f "$ladder check"; return; fi
  echo "ok: $rung on $ranks ranks: $(grep -E "^  $rung" "$out" | cut -c1-150)... (${took} s)"
}

# The hangs: the default limit (10 s on these cases) once, then 4 s, to keep the test short.
for ranks in 2 3; do
  quick=$([ $ranks = 3 ] && echo "--hang-limit 4")
  check_mistake convolution mpi_gather_counts $ranks \
    "FAIL case .*seed=[0-9]+.*: MPI_Gatherv failed on rank 0 of $ranks in the download step \(gather\): MPI_ERR_TRUNCATE"
  check_mistake convolution mpi_halo_unsent $ranks \
    "FAIL case .*seed=[0-9]+.*: hang: the compute step \(compute_ranks\) made no progress in [0-9]+ s: .*did not\. The usual causes: a receive whose send" \
    $quick
  check_mistake histogram mpi_reduce_skipped $ranks \
    "FAIL case .*seed=[0-9]+.*: (hang: the compute step \(compute_ranks\) made no progress|MPI_[A-Za-z]+ failed on rank)" \
    --hang-limit 4
  check_mistake kappa_sigma mpi_loop_left_early $ranks \
    "FAIL case .*seed=[0-9]+.*: (hang: the compute step \(compute_ranks\) made no progress|MPI_[A-Za-z]+ failed on rank)" \
    --hang-limit 4
  check_mistake median_filter mpi_rank_dies $ranks \
    "FAIL case .*seed=[0-9]+.*: rank $((ranks - 1)) of $ranks died on signal 11 \(Segmentation fault\) in the compute step \(compute_ranks\)"
  check_mistake histogram mpi_reduce_max $ranks "FAIL case .*seed=[0-9]+.*: "
done

# The same mistakes under `ladder run --ranks 2`: the table's FAIL row for
# wrong values; one line and no results file where the job had to stop.
run_mistake() {  # run_mistake EXERCISE RUNG PATTERN
  local out="$work/run-$2.txt"
  rm -f "$work/run.json"
  timeout 120 "$ladder" run "$1" --track exercises --variants "$2" --size tiny --ranks 2 --min-time 0.01 \
    --repetitions 3 --hang-limit 5 --out "$work/run.json" >"$out" 2>&1
  local status=$?
  if [ $status -ne 1 ]; then fail "run $2 on 2 ranks: exit $status, not 1" "$out"; return; fi
  grep -Eq -- "$3" "$out" || { fail "run $2 on 2 ranks: no /$3/" "$out"; return; }
  if grep -Eq "$launcher" "$out"; then fail "run $2 on 2 ranks: the launcher's words reach the user" "$out"; return; fi
  echo "ok: run $2 on 2 ranks: $(grep -E -- "$3" "$out" | head -1 | cut -c1-150)..."
}
run_mistake histogram mpi_reduce_max "ladder: at least one rung failed its check"
run_mistake convolution mpi_halo_unsent \
  "^ladder: FAIL: convolution's mpi_halo_unsent rung \(exercises track\) on case .*: hang: the compute step .* made no progress in 5 s.*no results file written"
[ -e "$work/run.json" ] && fail "a run stopped by a hang left a results file"
run_mistake median_filter mpi_rank_dies "^ladder: FAIL: .*: rank 1 of 2 died on signal 11 \(Segmentation fault\) in the compute step"

exit $((failures == 0 ? 0 : 1))
