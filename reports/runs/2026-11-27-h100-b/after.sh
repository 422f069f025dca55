#!/usr/bin/env bash
# After the reference run, on the same machine (run by start.sh in /root/tree):
# the issue-48 inputs that are not presets, then Nsight Compute on one
# launch of the changed kernels whose targets are missed.
set -u
rev=$1 repo=$2
ladder=/root/tree/build/gpu/bench/ladder
# No compute-sanitizer here: the machine goes back 30 minutes after its
# start. The kernels changed since the 2026-11-27-h100 run were each run
# under memcheck, racecheck and synccheck when they were made (the
# cuda_separable record, and the records of 2026-11-27's spot_finding and
# labelling changes).
extra=/root/ref/extra
mkdir -p "$extra"
common=(--repetitions 3 --time-budget 5)
"$ladder" run labelling --size large --param height=4096 --param width=4096 \
  --variants serial,openmp,cuda,cuda_rows "${common[@]}" --out "$extra/results-labelling-4096.json" \
  >"$extra/labelling-4096.log" 2>&1
"$ladder" run median_filter --size large --param size=7 --variants cuda,cuda_network,cuda_quads \
  "${common[@]}" --out "$extra/results-median-k7.json" >"$extra/median-k7.log" 2>&1
echo "extras done $(date -u +%T)"
profile() {  # NAME KERNEL_REGEX LAUNCHES ladder-run-arguments...
  local name=$1 kernels=$2 launches=$3
  shift 3
  ncu --kernel-name "regex:$kernels" --launch-skip 1 --launch-count "$launches" \
    --section SpeedOfLight --section LaunchStats --section Occupancy --section SchedulerStats \
    --section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    --section InstructionStats \
    "$ladder" run "$@" --repetitions 1 --min-time 0.001 --host-bandwidth 100 --device-bandwidth 2800 \
    --out "/tmp/ncu-$name.json" >"$extra/ncu-$name.txt" 2>&1
  echo "ncu $name exit $? $(date -u +%T)"
}
# The kernels that changed since the 2026-11-27-h100 run: spot_finding's
# four columns a lane, and labelling's scan (all five of its kernels, as
# then). The others are that run's or the -d run's kernels, and their
# profiles stand.
profile spot_finding dispersion_sliding 1 spot_finding --variants cuda_sliding --size workshop
profile labelling_4096 'label_tile_rows|merge_tile_borders|count_roots|scan_chunk_counts|number_components' 5 \
  labelling --variants cuda_rows --size large --param height=4096 --param width=4096
echo "profiles done $(date -u +%T)"
