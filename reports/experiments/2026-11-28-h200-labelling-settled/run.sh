#!/usr/bin/env bash
# label_tile_rows and label_tiles before and after: their last walk to a
# root without the halving (no union can change the tile's trees by then),
# and each row's root bits handed to a lane of its own, one atomicOr
# instruction a warp; "bounds": also __launch_bounds__(128, 8) on
# label_tile_rows (40 registers, no spill, against 32 and a 4-byte spill).
# Built side by side from one tree (before/ holds the two files as they
# were at a674718) and timed interleaved on one GPU; then each kernel's time
# under Nsight Compute. Writes into OUT.
set -uo pipefail
out=${1:?usage: run.sh OUT}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
copy() {  # FOLDER: this tree, without its builds
  rm -rf "$1" && mkdir -p "$1" && tar --exclude=./build --exclude='./build-*' -cf - . | tar -C "$1" -xf -
}
build() {  # SOURCE: into SOURCE/build-exp
  cmake -S "$1" -B "$1/build-exp" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=OFF \
    -DLADDER_TESTS=OFF -DLADDER_EXERCISES_TRACK=OFF -DLADDER_EXERCISES=labelling \
    -DCMAKE_CUDA_ARCHITECTURES=native >/dev/null && cmake --build "$1/build-exp" --target ladder -j "$(nproc)" >/dev/null
}
copy /tmp/after
copy /tmp/before && cp -r "$here/before/." /tmp/before/
copy /tmp/bounds && sed -i 's/__launch_bounds__(kTileWidth\* kRowTilesPerBlock)/__launch_bounds__(kTileWidth* kRowTilesPerBlock, 8)/' /tmp/bounds/kernels/labelling/labelling_rows.cuh
grep -q "kRowTilesPerBlock, 8)" /tmp/bounds/kernels/labelling/labelling_rows.cuh || { echo "bounds: no change made"; exit 1; }
sides="before after bounds"
{ date -u +%T; for side in $sides; do build /tmp/$side || exit 1; done; date -u +%T; } >"$out/build.log" 2>&1 ||
  { echo "build failed"; tail -30 "$out/build.log"; exit 1; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$out/machine.txt"
uptime >>"$out/machine.txt"
for side in after bounds; do
  /tmp/$side/build-exp/bench/ladder check labelling --variants cuda,cuda_rows 2>&1 | tail -3 | sed "s/^/$side /"
  for tool in memcheck racecheck synccheck; do
    compute-sanitizer --tool $tool --error-exitcode 9 /tmp/$side/build-exp/bench/ladder check labelling \
      --variants cuda,cuda_rows >"$out/sanitizer-$side-$tool.log" 2>&1
    echo "$side $tool exit $?"
  done
done | tee "$out/check.txt"
uptime >>"$out/machine.txt"
for round in 1 2; do
  for side in $sides; do
    ladder=/tmp/$side/build-exp/bench/ladder
    for case in "--param connectivity=4" "--param connectivity=8"; do
      tag=$side-$round-c${case##*=}
      "$ladder" run labelling --param image=noise --param height=4096 --param width=4096 $case \
        --variants cuda,cuda_rows --out "$out/$tag.json" >"$out/$tag.txt" 2>&1
      grep -E "^  (cuda|cuda_rows) " "$out/$tag.txt" | sed "s/^/$tag /"
    done
  done
done | tee "$out/rounds.txt"
uptime >>"$out/machine.txt"
# Each kernel's time at Nsight Compute's clocks: one launch of each, after the first compute.
for side in $sides; do
  ncu --section SpeedOfLight --kernel-name regex:"label_tile_rows|merge_tile_borders|count_roots|scan_chunk|number_comp" \
    --launch-skip 5 --launch-count 5 /tmp/$side/build-exp/bench/ladder run labelling --param image=noise \
    --param height=4096 --param width=4096 --variants cuda_rows --repetitions 1 --min-time 0.001 \
    --out /tmp/ncu.json >"$out/ncu-$side.txt" 2>&1
  grep -E "^  [a-z<].*\(|Duration" "$out/ncu-$side.txt" | sed "s/^/$side /"
done | tee "$out/ncu-summary.txt"
