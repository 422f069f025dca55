#!/usr/bin/env bash
# Sets up, builds and runs every test. PRESET: release (default) or ci
# (warnings as errors) or debug-asan (sanitizers).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${PRESET:-release}
scripts/bootstrap.sh
cuda=$(scripts/cuda_option.sh)  # CUDA built where a GPU is, or where LADDER_CUDA asks
# The debug-asan preset has CUDA off whatever is asked.
[ "$preset" = debug-asan ] && cuda=OFF
cmake --preset "$preset" -DLADDER_CUDA="$cuda" | { grep "hpc-ladder" || true; }
cmake --build --preset "$preset"
ctest --preset "$preset"
