#!/usr/bin/env bash
# After the reference run, on the same machine (run by start.sh in /root/tree):
# compute-sanitizer over every CUDA rung, the issue-48 inputs that are not
# presets, then Nsight Compute on one launch of the kernels below.
set -u
rev=$1 repo=$2
ladder=/root/tree/build/gpu/bench/ladder
# gpu_check.sh configures from the source tree: the build is already there (build-gpu).
(cd "$repo" && LADDER_GIT_REVISION=$rev CUDA_ARCHITECTURES=90 TESTS=0 SIZES="" THREADS="" \
  scripts/gpu_check.sh /root/ref/check)
echo "sanitizer done $(date -u +%T)"
extra=/root/ref/extra
mkdir -p "$extra"
common=(--repetitions 3 --time-budget 5)
"$ladder" run labelling --size large --param height=4096 --param width=4096 \
  --variants serial,openmp,cuda,cuda_rows "${common[@]}" --out "$extra/results-labelling-4096.json" \
  >"$extra/labelling-4096.log" 2>&1
"$ladder" run labelling --size large --param height=4096 --param width=4096 --param connectivity=8 \
  --variants cuda,cuda_rows "${common[@]}" --out "$extra/results-labelling-4096-c8.json" \
  >"$extra/labelling-4096-c8.log" 2>&1
"$ladder" run labelling --size large --param connectivity=8 --variants serial,openmp,cuda,cuda_rows \
  "${common[@]}" --out "$extra/results-labelling-8192-c8.json" >"$extra/labelling-8192-c8.log" 2>&1
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
# The kernels that changed since the -d run (median k = 7), and labelling's,
# whose profile the -d run ran out of time for. The others are the -d run's
# kernels, and its profiles of them stand.
profile median_k7 median_quads 1 median_filter --variants cuda_quads --size large --param size=7
profile labelling_4096 'label_tile_rows|merge_tile_borders|count_roots|scan_chunk_counts|number_components' 5 \
  labelling --variants cuda_rows --size large --param height=4096 --param width=4096
echo "profiles done $(date -u +%T)"
