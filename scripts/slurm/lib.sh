# shellcheck shell=bash
# Sourced by the job scripts beside it, after their settings: outside a job
# it submits the script; inside one it loads the site's software, finds
# `ladder` and gives the script `show` and `launch`.
# Not a job script itself: it has no #SBATCH lines.

job_script=${SLURM_JOB_NAME:-$(basename "$0")}  # under sbatch, $0 is the spool's copy, "slurm_script"

# Run outside a job, the script submits itself with the settings it was
# given: #SBATCH lines are read by sbatch before the script runs, so
# variables can only reach the allocation as sbatch's options (which win over
# the #SBATCH lines). Under salloc there is a job already, and it runs there.
if [ -z "${SLURM_JOB_ID:-}" ]; then
  submit=(sbatch ${PARTITION:+"--partition=$PARTITION"} ${ACCOUNT:+"--account=$ACCOUNT"}
          ${TIME_LIMIT:+"--time=$TIME_LIMIT"} ${NODES:+"--nodes=$NODES"} ${TASKS:+"--ntasks=$TASKS"}
          ${GPUS_PER_NODE:+"--gpus-per-node=$GPUS_PER_NODE"})
  # shellcheck disable=SC2206  # SUBMIT_OPTIONS is a list of sbatch options, split as typed
  submit+=(${SUBMIT_OPTIONS:-} "$0" "$@")
  echo "+ ${submit[*]}"
  exec "${submit[@]}"
fi

# show COMMAND...: prints the command, as it could be typed again, then runs it.
show() {
  local word line=+
  for word in "$@"; do
    if [[ $word =~ ^[][A-Za-z0-9_./=,:+@%-]+$ ]]; then line+=" $word"; else line+=" $(printf %q "$word")"; fi
  done
  echo "$line"
  "$@"
}

# The site's software. Site profiles, module files and Spack's shell code are
# not written for `set -eu`, and a batch shell is no login shell, which
# defines `module`.
set +eu
if [ -n "${MODULES:-}" ]; then
  # shellcheck disable=SC1091  # the machine's own
  type module >/dev/null 2>&1 || . /etc/profile >/dev/null
  echo "+ module load $MODULES"
  # shellcheck disable=SC2086  # a list of modules
  module load $MODULES || { echo "$job_script: module load $MODULES failed" >&2; exit 2; }
fi
if [ -n "${SPACK_ENVIRONMENT:-}" ]; then
  echo "+ spack env activate $SPACK_ENVIRONMENT"
  # --sh: the variables to set, for a shell without Spack's own set-up.
  activate=$(spack env activate --sh "$SPACK_ENVIRONMENT") ||
    { echo "$job_script: spack env activate $SPACK_ENVIRONMENT failed" >&2; exit 2; }
  eval "$activate"
fi
set -eu

# The release build of the repository these scripts are in, unless LADDER says otherwise.
LADDER=${LADDER:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/release/bench/ladder}
[ -x "$LADDER" ] || { echo "$job_script: no ladder program at $LADDER (build it, or set LADDER)" >&2; exit 2; }
RANKS=${RANKS:-${SLURM_NTASKS:-1}}
LAUNCH=${LAUNCH:-mpirun}
case $LAUNCH in
  mpirun | srun) ;;
  *) echo "$job_script: LAUNCH must be mpirun or srun, not $LAUNCH" >&2; exit 2 ;;
esac
echo "job ${SLURM_JOB_ID} on ${SLURM_JOB_NODELIST:-$(hostname)}: ${SLURM_NTASKS:-?} tasks, MPI ranks through $LAUNCH"

# launch COMMAND ARGS...: `ladder COMMAND ARGS...` on RANKS MPI ranks, the
# site's way. mpirun: ladder's --ranks starts Open MPI's mpirun, which takes
# the nodes and tasks from the allocation by itself, and watches the job. srun:
# the ranks are srun's tasks (PMIx), and rank 0 watches them. Rank 0 also runs
# the rungs that are not MPI (OpenMP's threads among them) on its task's CPUs,
# and srun (since Slurm 22.05) does not take the job's --cpus-per-task by itself.
launch() {
  if [ "$LAUNCH" = srun ]; then
    show srun --mpi="${SRUN_MPI:-pmix}" --ntasks="$RANKS" ${SLURM_CPUS_PER_TASK:+"--cpus-per-task=$SLURM_CPUS_PER_TASK"} \
      "$LADDER" "$@"
  else
    show "$LADDER" "$@" --ranks "$RANKS"
  fi
}
