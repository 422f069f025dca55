#!/usr/bin/env bash
# The one-GPU rows of the many-GPU issue on one H200 (the H100 kind the
# suite's single-GPU reference was taken on is not lent): each case with
# three interleaved replicates through scripts/reference_run.sh (PART=run:
# no peers), one folder per case under OUT. Build first, on the machine:
#
#   reports/runs/2026-11-28-h200/run.sh OUT REVISION
set -uo pipefail
out=${1:?usage: run.sh OUT REVISION}
rev=${2:?usage: run.sh OUT REVISION}
mkdir -p "$out"
{ date -u +%T
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=OFF -DLADDER_TESTS=OFF \
    -DLADDER_EXERCISES_TRACK=OFF -DLADDER_EXERCISES="labelling;kappa_sigma;spot_finding;median_filter" \
    -DCMAKE_CUDA_ARCHITECTURES=native -DLADDER_GIT_REVISION="$rev" &&
    cmake --build build-gpu --target ladder -j "$(nproc)"
  date -u +%T; } >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
sleep 30  # the build's load settles (machine.txt records it)
export LADDER=build-gpu/bench/ladder PART=run REPLICATES=3
one_case() {  # NAME SIZE ladder-run-arguments...
  local name=$1 size=$2
  shift 2
  echo "== $name $(date -u +%T)"
  SIZE=$size scripts/reference_run.sh "$out/$name" "$@" --time-budget 10 | grep -E "^  (cuda|serial|openmp)"
}
one_case labelling-4096 large labelling --param height=4096 --param width=4096 --variants cuda,cuda_rows
one_case kappa-seed1 workshop kappa_sigma --variants cuda,cuda_persistent --seed 1
one_case kappa-seed2 workshop kappa_sigma --variants cuda,cuda_persistent --seed 2
one_case kappa-seed3 workshop kappa_sigma --variants cuda,cuda_persistent --seed 3
one_case spot-workshop workshop spot_finding --variants cuda,cuda_sliding
one_case spot-large large spot_finding --variants cuda,cuda_sliding,cuda_streams --pinned
one_case median-k7 large median_filter --param size=7 --variants cuda_network,cuda_quads
echo "== done $(date -u +%T)"
