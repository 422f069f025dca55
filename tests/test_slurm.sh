#!/usr/bin/env bash
# The Slurm job scripts (scripts/slurm/) under a real Slurm of one node,
# started here for the test in a folder of its own: munged, slurmctld and
# slurmd, on ports nothing else uses. Each script is submitted with `sbatch
# --wait` at the tiny size on 2 tasks; its job must end with exit code 0 and
# leave the results it should, which `ladder compare` reads. `srun --mpi=pmix`
# starting ladder's ranks itself (the direct launch) must give one results
# file of 2 ranks; srun offering what Open MPI cannot join (PMI-2, none) one
# message. Every daemon is stopped and the folder removed however the
# test ends.
#
#   test_slurm.sh LADDER SOURCE_DIR
#
# Run as root (Slurm's daemons and munged), with Slurm, munge and Open MPI
# installed (Debian: slurmctld slurmd slurm-client munge libpmix-dev
# openmpi-bin); skipped (exit 77) where they are not.
set -uo pipefail
ladder=$(realpath "$1")
source_dir=$(realpath "$2")
scripts=$source_dir/scripts/slurm
PATH=$PATH:/usr/sbin:/sbin  # the daemons, where root's PATH lacks them
[ "$(id -u)" -eq 0 ] || { echo "skipped: not root (the test starts Slurm's daemons and munged)"; exit 77; }
for program in munged slurmctld slurmd sbatch srun sinfo mpirun; do
  command -v $program >/dev/null ||
    { echo "skipped: $program is not installed (Debian: slurmctld slurmd slurm-client munge openmpi-bin)"; exit 77; }
done
# Nothing of an allocation this test may itself run in, nor of the caller's
# settings of the scripts, reaches the test's cluster and jobs.
# shellcheck disable=SC2046
unset $(compgen -e | grep -E '^(SLURM|SBATCH|SRUN|SALLOC)_') PARTITION ACCOUNT TIME_LIMIT NODES TASKS GPUS_PER_NODE \
  MODULES SPACK_ENVIRONMENT LAUNCH RANKS ARGS OUT EXERCISE EXERCISES SIZE REPLICATES VARIANTS COUNTS SUBMIT_OPTIONS
# Open MPI as root (CI, containers) needs its consent.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LADDER=$ladder

# munged wants every folder above its socket open to all (o+x).
work=$(mktemp -d "${TMPDIR:-/tmp}/ladder-slurm.XXXXXX")
chmod 755 "$work"
mkdir -p "$work/state" "$work/spool" "$work/jobs"
daemons=()  # pids, in the order started
failures=0
# shellcheck disable=SC2317  # run by the trap
stop_everything() {
  if [ ${#daemons[@]} -ge 3 ]; then  # a job still running (a failed check) ends first
    timeout 10 scancel --quiet --user="$(id -un)"
    for _ in $(seq 30); do [ -z "$(timeout 5 squeue --noheader 2>/dev/null)" ] && break; sleep 0.5; done
  fi
  local i pid
  for ((i = ${#daemons[@]} - 1; i >= 0; i--)); do
    pid=${daemons[i]}
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  if [ "$failures" -ne 0 ]; then  # the daemons' side of it
    for log in slurmctld.log slurmd.log munged.out; do echo "--- $log (end)"; tail -n 20 "$work/$log"; done
  fi
  rm -rf "$work"
}
trap stop_everything EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

# Two ports nothing listens on, away from Slurm's own (6817, 6818).
free_port() {
  local port=$1
  while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
  echo "$port"
}
controller_port=$(free_port $((20000 + $$ % 20000)))
node_port=$(free_port $((controller_port + 1)))

dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge.key"
munged --foreground --key-file="$work/munge.key" --socket="$work/munge.socket" --pid-file="$work/munged.pid" \
  --seed-file="$work/munged.seed" >"$work/munged.out" 2>&1 &
daemons+=($!)
for _ in $(seq 50); do [ -S "$work/munge.socket" ] && break; sleep 0.1; done
[ -S "$work/munge.socket" ] || { fail "munged did not start:"; cat "$work/munged.out"; exit 1; }

# The node as slurmd finds it (CPUs, memory), reached on the loopback.
cat >"$work/slurm.conf" <<EOF
ClusterName=ladder-test
SlurmctldHost=localhost
SlurmctldPort=$controller_port
SlurmdPort=$node_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge.socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=pmix
MailProg=/bin/true
# sbatch --wait polls every 2 s while 2 < MinJobAge / 2, else up to every 32 s.
MinJobAge=4
ReturnToService=2
$(slurmd -C | head -1) NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$work/slurm.conf
# In the foreground (-D), as children of this script: stopped by their pids.
slurmctld -D -f "$SLURM_CONF" >"$work/slurmctld.out" 2>&1 &
daemons+=($!)
slurmd -D -f "$SLURM_CONF" >"$work/slurmd.out" 2>&1 &
daemons+=($!)
for _ in $(seq 60); do [ "$(timeout 5 sinfo --noheader --Node --format=%t 2>/dev/null)" = idle ] && break; sleep 0.5; done
if [ "$(timeout 5 sinfo --noheader --Node --format=%t 2>/dev/null)" != idle ]; then
  fail "the node did not come up idle within 30 s: sinfo says"
  timeout 5 sinfo --Node --long
  cat "$work/slurmctld.out" "$work/slurmd.out"
  exit 1
fi
echo "ok: a one-node Slurm is up ($(slurmd -C | head -1 | cut -d' ' -f1-2), ports $controller_port and $node_port)"

cd "$work/jobs" || exit 1
fast="--min-time 0.01 --repetitions 3 --host-bandwidth 10"
# submit NAME [VARIABLE=VALUE...]: scripts/slurm/NAME.sbatch with --wait on
# 2 tasks (--overcommit: also on a machine of one CPU), the variables set; its job must end with exit code 0 (sbatch
# --wait's status: without slurmdbd there is no sacct). Sets $job.
submit() {
  local name=$1 status
  shift
  job=$(env "$@" timeout 120 sbatch --parsable --wait --ntasks=2 --overcommit --time=3 "$scripts/$name.sbatch")
  status=$?
  job=${job%%;*}
  [ $status -ne 124 ] || timeout 10 scancel "$job"  # so that the next job does not wait behind it
  local output=$work/jobs/ladder-$name-$job.out
  if [ $status -eq 0 ] && [ -f "$output" ] && grep -q "^+ .*ladder" "$output"; then
    echo "ok: $name.sbatch ($*): job $job ended with exit code 0 and printed what it ran"
  else
    fail "$name.sbatch ($*): sbatch --wait exited $status, job ${job:-not submitted}; its output:"
    cat "$output" 2>/dev/null
  fi
}
# results FILE RANKS...: FILE's entries are of these ranks, each with a passing
# mpi row; `ladder compare` reads the file (against itself: the same).
results() {
  local file=$1
  shift
  [ -f "$file" ] || { fail "no results file $file"; return; }
  if python3 - "$file" "$@" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
assert [entry["ranks"] for entry in results] == [int(r) for r in sys.argv[2:]], [e["ranks"] for e in results]
for entry in results:
    rows = {row["rung"]: row for row in entry["rungs"]}
    assert rows["mpi"]["status"] == "ok", rows["mpi"]
    assert rows["mpi"]["device"].startswith(f"{entry['ranks']} MPI rank"), rows["mpi"]["device"]
PY
  then echo "ok: $file: entries of ranks $*, the mpi rung timed on each"
  else fail "$file is not entries of ranks $* with a passing mpi row"; fi
  timeout 60 "$ladder" compare "$file" "$file" >"$work/compare.txt" 2>&1 ||
    { fail "ladder compare $file $file exited $?:"; cat "$work/compare.txt"; }
}

# A participant's check: submitted as it is, and as it submits itself.
submit check EXERCISE=histogram
grep -q "MPI rungs on 2 ranks" "$work/jobs/ladder-check-$job.out" || fail "check.sbatch did not check on 2 ranks"
grep -Eq "^  mpi +(pass|not implemented)" "$work/jobs/ladder-check-$job.out" || fail "check.sbatch gave the mpi rung no verdict"
self=$(TASKS=2 TIME_LIMIT=3 SUBMIT_OPTIONS="--wait --parsable --overcommit" timeout 120 "$scripts/check.sbatch" 2>&1)
status=$?
job=$(echo "$self" | tail -1)
if [ $status -eq 0 ] && echo "$self" | grep -q "^+ sbatch .*--ntasks=2" && grep -q "MPI rungs on 2 ranks" "ladder-check-$job.out"; then
  echo "ok: check.sbatch run outside a job submits itself with its settings (job $job)"
else
  fail "check.sbatch run outside a job (exit $status):"; echo "$self"; cat "ladder-check-$job.out" 2>/dev/null
fi
# Interactive: under salloc the script has its job already, and runs in it.
if timeout 120 salloc --ntasks=2 --overcommit --time=3 "$scripts/check.sbatch" >"$work/salloc.txt" 2>&1 &&
  grep -q "MPI rungs on 2 ranks" "$work/salloc.txt"; then
  echo "ok: salloc --ntasks=2 check.sbatch checks in the allocation"
else
  fail "salloc --ntasks=2 check.sbatch:"; cat "$work/salloc.txt"
fi

# An instructor's run and its report, through mpirun (ladder --ranks) and through srun.
for launch in mpirun srun; do
  submit run LAUNCH=$launch SIZE=tiny EXERCISES=histogram ARGS="--variants serial,mpi $fast"
  results "results/ladder-run-$job/ladder-results.json" 2
  [ -f "results/ladder-run-$job/report/report.html" ] || fail "run.sbatch (LAUNCH=$launch) left no report"
done

# A reference run: 3 replicates, and the load before.
submit reference SIZE=tiny EXERCISES=histogram ARGS="--variants serial,mpi $fast"
results "results/ladder-reference-$job/ladder-results.json" 2
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["results"][0]["replicates"] == 3' \
  "results/ladder-reference-$job/ladder-results.json" || fail "the reference run did not run 3 replicates"
grep -q "^before: .*load average" "results/ladder-reference-$job/load.txt" || fail "the reference run did not record the load"
[ -f "results/ladder-reference-$job/report/report.html" ] || fail "reference.sbatch left no report"

# A scaling sweep over the allocation's tasks (1, 2): one results file, its scaling chart.
submit sweep SIZE=tiny EXERCISES=histogram ARGS="$fast"
grep -q -- "--sweep ranks=1,2 " "ladder-sweep-$job.out" || fail "sweep.sbatch did not sweep ranks=1,2"
results "results/ladder-sweep-$job/ladder-results.json" 1 2
[ -f "results/ladder-sweep-$job/report/scaling-histogram-tiny-ranks.png" ] || fail "sweep.sbatch's report has no scaling chart"

# Direct launch: srun starts the ranks, ladder's rank 0 writes one file.
# shellcheck disable=SC2086  # $fast is a list of options
if timeout 120 srun -n 2 --overcommit --mpi=pmix --time=3 "$ladder" run histogram --size tiny --variants mpi $fast \
  --out "$work/srun.json" >"$work/srun.txt" 2>&1; then
  echo "ok: srun -n 2 --mpi=pmix ladder run exits 0"
else
  fail "srun -n 2 --mpi=pmix ladder run exited $?:"; cat "$work/srun.txt"
fi
results "$work/srun.json" 2
# srun offering what this Open MPI cannot join (PMI-2 where it was built for
# PMIx only, or nothing): one message from task 0, naming the way that works,
# exit 2 from every task, and no results file; not Open MPI's abort.
for plugin in pmi2 none; do
  srun --mpi=list 2>&1 | grep -q "$plugin" || { echo "skipped: this Slurm has no --mpi=$plugin"; continue; }
  # shellcheck disable=SC2086
  timeout 120 srun -n 2 --overcommit --mpi=$plugin --time=3 "$ladder" run histogram --size tiny --variants mpi $fast \
    --out "$work/srun-$plugin.json" >"$work/srun-$plugin.txt" 2>&1
  status=$?
  if [ $status -ne 0 ] && [ "$(grep -c "^ladder: error: srun started this as one of 2 tasks with --mpi=$plugin" "$work/srun-$plugin.txt")" = 1 ] &&
    grep -q "srun --mpi=pmix" "$work/srun-$plugin.txt" && ! grep -q "MPI_Init\|MPI_ERRORS_ARE_FATAL" "$work/srun-$plugin.txt" &&
    [ ! -e "$work/srun-$plugin.json" ]; then
    echo "ok: srun --mpi=$plugin gets one message naming srun --mpi=pmix (exit $status), and no results"
  elif grep -q "^ladder: error\|MPI_Init" "$work/srun-$plugin.txt" || [ $status -ne 0 ]; then
    fail "srun --mpi=$plugin exited $status:"; cat "$work/srun-$plugin.txt"
  else
    echo "ok: srun --mpi=$plugin ran (this Open MPI joins it): $(tail -1 "$work/srun-$plugin.txt")"
    results "$work/srun-$plugin.json" 2
  fi
done

[ $failures -eq 0 ] && echo "all passed" || echo "$failures failed"
exit $((failures > 0))
