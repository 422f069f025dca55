#!/usr/bin/env bash
# The openmp_target rungs compiled for an AMD GPU too (gfx90a, the MI200s):
# one source for both vendors. clang makes each rung's device code for
# amdgcn-amd-amdhsa (LLVM IR, without AMD's device library: Debian has none
# for clang 16, hence -nogpulib) and llc lowers it to gfx90a's
# instructions. Neither linked nor run: there is no AMD GPU here.
#
#   test_openmp_target_amd.sh CLANG SOURCE_DIR [INCLUDE_DIR...]
set -uo pipefail
clang=$1 source_dir=$2
shift 2
includes=()
for folder in "$@"; do includes+=(-I"$folder"); done
llc=$(command -v llc-16 || command -v llc) || { echo "skipped: no llc-16 (Debian: llvm-16)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
for file in "$source_dir"/solutions/*/openmp_target*.cpp; do
  name=$(basename "$(dirname "$file")")/$(basename "$file")
  if "$clang" -O3 -std=c++20 -fopenmp -fopenmp-targets=amdgcn-amd-amdhsa -Xopenmp-target=amdgcn-amd-amdhsa \
      -march=gfx90a -nogpulib --offload-device-only -emit-llvm -c -Wall -Wextra -Werror \
      -I"$source_dir/bench/include" -I"$source_dir" "${includes[@]}" "$file" -o "$work/device.bc" &&
    "$llc" -O3 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a "$work/device.bc" -o "$work/device.s" &&
    grep -q "s_endpgm" "$work/device.s"; then
    echo "ok: $name compiles to gfx90a code ($(grep -c "s_endpgm" "$work/device.s") kernels)"
  else
    echo "FAILED: $name for gfx90a"
    failures=$((failures + 1))
  fi
done
exit $((failures > 0))
