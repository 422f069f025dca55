#!/usr/bin/env bash
# The labelling numbering before and after (roots' bits kept while the
# forest is built, counted in chunks of 32768 pixels, each word's count
# beside its bits; number_components four pixels a thread in step; "two":
# two a thread), built side by
# side from one tree (before/ holds the five files as they were) and timed
# interleaved on one GPU; then each kernel's time under Nsight Compute.
# Writes into OUT.
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
copy /tmp/two && sed -i 's/constexpr int kNumberPixels = 4;/constexpr int kNumberPixels = 2;/' /tmp/two/kernels/labelling/labelling.cuh
grep -q "kNumberPixels = 2" /tmp/two/kernels/labelling/labelling.cuh || { echo "two: no change made"; exit 1; }
sides="before after two"
{ date -u +%T; for side in $sides; do build /tmp/$side || exit 1; done; date -u +%T; } >"$out/build.log" 2>&1 ||
  { echo "build failed"; tail -30 "$out/build.log"; exit 1; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$out/machine.txt"
uptime >>"$out/machine.txt"
for side in after two; do
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
    "$ladder" run labelling --variants cuda,cuda_rows --out "$out/$side-$round-sky.json" >"$out/$side-$round-sky.txt" 2>&1
    grep -E "^  (cuda|cuda_rows) " "$out/$side-$round-sky.txt" | sed "s/^/$side-$round-sky /"
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
