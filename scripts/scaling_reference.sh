#!/usr/bin/env bash
# The many-GPU reference run (reports/runs/*-scaling), made the same way on
# every machine of a kind with several GPUs: each distributed exercise's
# rungs with a GPU a rank (cuda_nccl and its kin) over 1, 2, 4, ... ranks,
# strong scaling at the large size and weak scaling at the workshop size,
# with interleaved replicates; at the large size the one-GPU rungs named in
# BESIDE (default cuda_streams, where the exercise has it) are timed in the
# same run, as what the many-GPU rungs with their copies are set against.
#
#   scripts/scaling_reference.sh OUTDIR [EXERCISE...]
#
# One results file per exercise and part (a rung list is an exercise's
# own): OUTDIR/results-large-EX.json and results-workshop-weak-EX.json, each
# with its report's tables under OUTDIR/report/. LADDER (default
# build/release/bench/ladder) is the program; REPLICATES (default 3), RANKS
# (default 1,2,... doubling up to the GPUs) and PART (strong, weak or all;
# default all) the run. A machine whose commands are time-limited can run
# the exercises in several calls into the same OUTDIR. Take it on an idle
# machine: no build, test or other job beside it; the load before and after
# each part goes into OUTDIR/machine.txt. `ladder reproduce OUTDIR` reruns it.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/scaling_reference.sh OUTDIR [EXERCISE...]}
shift
ladder=${LADDER:-build/release/bench/ladder}
[ -x "$ladder" ] || { echo "scaling_reference.sh: no ladder program at $ladder (build first, or set LADDER)" >&2; exit 2; }
part=${PART:-all}
case $part in all | strong | weak) ;; *) echo "scaling_reference.sh: PART must be all, strong or weak, not $part" >&2; exit 2 ;; esac
gpus=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU" || true)
[ "${gpus:-0}" -ge 2 ] || [ -n "${RANKS:-}" ] ||
  { echo "scaling_reference.sh: $gpus GPUs here; a scaling reference needs two or more (or RANKS=...)" >&2; exit 2; }
ranks=${RANKS:-$(p=1; counts=1; while [ $((p * 2)) -le "$gpus" ]; do p=$((p * 2)); counts+=",$p"; done; echo "$counts")}
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1} OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}  # NVLink multicast off, as on every lent machine
mkdir -p "$out/report"

# Each exercise with a distributed rung (or those named), and its rungs with a GPU a rank.
exercises=$("$ladder" list --json | python3 -c '
import json, sys
wanted = set(sys.argv[1:])
for entry in json.load(sys.stdin):
    names = [r["name"] for r in entry["rungs"] if r["runs_here"]]
    spread = [n for n in names if n.startswith("cuda_nccl")]
    if spread and (not wanted or entry["exercise"] in wanted):
        print(entry["exercise"], ",".join(spread), ",".join(names))' "$@")
[ -n "$exercises" ] || { echo "scaling_reference.sh: no exercise here has a cuda_nccl rung that runs" >&2; exit 2; }

machine() {
  echo "== $1: $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg)," \
    "processes using a core: $(ps -eo pcpu= | awk '$1 > 20' | wc -l)" >>"$out/machine.txt"
}
if [ ! -s "$out/machine.txt" ]; then
  {
    echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) hardware threads"
    echo "memory: $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)"
    nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
    nvidia-smi topo -m
    mpirun --version | head -1
  } >"$out/machine.txt" 2>&1
fi

status=0
while read -r exercise spread names; do
  beside=$(python3 -c '
import sys
names, beside = sys.argv[1].split(","), sys.argv[2].split(",")
print(",".join(n for n in beside if n in names))' "$names" "${BESIDE:-cuda_streams}")
  for which in strong weak; do
    [ "$part" = all ] || [ "$part" = "$which" ] || continue
    if [ "$which" = strong ]; then
      size=large; file=results-large-$exercise; variants=$spread${beside:+,$beside}; weak=()
    else
      size=workshop; file=results-workshop-weak-$exercise; variants=$spread; weak=(--weak)
    fi
    machine "before $exercise $which"
    echo "== $(date -u +%T) ladder run $exercise --size $size --variants $variants --sweep ranks=$ranks ${weak[*]}"
    "$ladder" run "$exercise" --size "$size" --variants "$variants" --sweep "ranks=$ranks" "${weak[@]}" \
      --replicates "${REPLICATES:-3}" --time-budget 10 --out "$out/$file.json" </dev/null 2>&1 | tee -a "$out/run.log" |
      grep -E "^(strong|weak) scaling|^  $exercise " || true
    [ "${PIPESTATUS[0]}" -le 1 ] || status=1  # exit 1: a rung failed its check, which its rows say
    machine "after $exercise $which"
    # (stdin from /dev/null: mpirun would read the rest of the exercises' list)
    "$ladder" report "$out/$file.json" --out "$out/report/$file" </dev/null >/dev/null 2>&1 || status=1
    # Kept: the tables; `ladder report` draws the charts and the page again from the results.
    find "$out/report/$file" -type f ! -name '*.md' ! -name '*.csv' -delete
    find "$out/report/$file" -type d -empty -delete
  done
done <<<"$exercises"
exit $status
