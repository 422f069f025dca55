#!/usr/bin/env bash
# Sets up, builds and runs every test. PRESET: release (default) or ci
# (warnings as errors) or debug-asan (sanitizers).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${PRESET:-release}
scripts/bootstrap.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
ctest --preset "$preset"
