#!/usr/bin/env bash
# Sets up, builds and runs the whole suite on this machine's defaults:
# prints the speed-up table and writes results/ladder-results.json.
# Extra arguments go to `ladder run` (e.g. vector_add --size tiny).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
cmake --preset release >/dev/null
cmake --build --preset release
mkdir -p results
build/release/bench/ladder run --out results/ladder-results.json "$@"
