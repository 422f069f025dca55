#!/usr/bin/env bash
# A reference run: what reports/runs/ holds, made the same way on every
# machine. The whole suite at one size with replicates (interleaved, so the
# spread between them is what a rerun here would see), the peers on the
# same inputs with as many replicates, the machine and its load before and
# after, and the report.
#
#   scripts/reference_run.sh OUTDIR [ladder run arguments...]
#
# LADDER (default build/release/bench/ladder) is the program; REPLICATES
# (default 3) and SIZE (default workshop) the run. Take it on an idle machine:
# no build, test or other job beside it. `ladder reproduce OUTDIR` reruns it.
# PART=run stops after `ladder run`; PART=peers then adds the peers and the
# report to the same OUTDIR (for a machine whose commands are time-limited).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/reference_run.sh OUTDIR [ladder run arguments...]}
shift
ladder=${LADDER:-build/release/bench/ladder}
results="$out/results-${SIZE:-workshop}.json"
mkdir -p "$out"
[ -x "$ladder" ] || { echo "reference_run.sh: no ladder program at $ladder (build first, or set LADDER)" >&2; exit 2; }

part=${PART:-all}
case $part in all | run | peers) ;; *) echo "reference_run.sh: PART must be all, run or peers, not $part" >&2; exit 2 ;; esac
status=0
if [ "$part" != peers ]; then
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) hardware threads"
  echo "memory: $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)"
  command -v nvidia-smi >/dev/null &&
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "processes using a core before: $(ps -eo pcpu= | awk '$1 > 20' | wc -l)"
} >"$out/machine.txt"
cat "$out/machine.txt"

"$ladder" run --size "${SIZE:-workshop}" --replicates "${REPLICATES:-3}" --out "$results" "$@" 2>&1 |
  tee "$out/run.log"
run_status=${PIPESTATUS[0]}
# Exit 1 is a rung that failed its check: its results still count, and say so.
[ "$run_status" -le 1 ] || { echo "reference_run.sh: ladder run failed (exit $run_status)" >&2; exit 1; }
[ "$run_status" -eq 0 ] || status=1
[ "$part" = run ] && exit $status
fi
# The Python CMake found (with NumPy, SciPy, ...), as run.sh does; else python3.
python=${PYTHON:-$(sed -n 's/^LADDER_PYTHON:FILEPATH=//p' "$(dirname "$ladder")/../CMakeCache.txt" 2>/dev/null)}
python=${python:-python3}
"$python" reports/peers.py "$results" --ladder "$ladder" 2>&1 | tee "$out/peers.log" || status=1
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
"$ladder" report "$results" --out "$out/report" || status=1
# The committed run keeps the self-contained page and the tables; `ladder
# report` makes the charts' PNG/SVG files and the slides again from the results.
rm -f "$out"/report/*.png "$out"/report/*.svg
rm -rf "$out"/report/slides
exit $status
