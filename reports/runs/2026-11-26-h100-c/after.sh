#!/usr/bin/env bash
# After the reference run, on the same machine (run by start.sh in /root/tree):
# compute-sanitizer over every CUDA rung, then the issue-20 inputs that are
# not presets.
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
"$ladder" run median_filter --size large --param size=7 --variants cuda,cuda_network \
  "${common[@]}" --out "$extra/results-median-k7.json" >"$extra/median-k7.log" 2>&1
echo "extras done $(date -u +%T)"
