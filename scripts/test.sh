#!/usr/bin/env bash
# Sets up, builds and runs every test. PRESET: release (default) or ci
# (warnings as errors) or debug-asan (sanitizers).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${PRESET:-release}
scripts/bootstrap.sh
# CUDA code is built where it can run, on a machine with an NVIDIA GPU, or
# where LADDER_CUDA=ON (or AUTO: wherever nvcc is) asks for it; CI asks, so
# that it cannot rot. Elsewhere the CUDA rungs are "not built in this
# build", and the first build takes minutes less.
cuda=${LADDER_CUDA:-}
if [ -z "$cuda" ]; then
  if nvidia-smi -L >/dev/null 2>&1; then cuda=AUTO; else cuda=OFF; fi
fi
# The debug-asan preset has CUDA off whatever is asked.
[ "$preset" = debug-asan ] && cuda=OFF
cmake --preset "$preset" -DLADDER_CUDA="$cuda" | { grep "hpc-ladder" || true; }
cmake --build --preset "$preset"
ctest --preset "$preset"
