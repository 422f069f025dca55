#!/usr/bin/env bash
# On the GPU machine, from the repository root, with the robust core change in the
# tree: build kappa_sigma with timeline.patch (block 0 stamps %globaltimer
# after each phase and prints the gaps, in µs), and run one launch at the
# workshop and large sizes. Writes into $OUT.
set -u
here=reports/experiments/2026-11-26-h100-kappa-sigma-robust-core
out=${OUT:?}
patch -p1 <"$here/timeline.patch" >/dev/null || exit 1
cmake -S . -B build-timeline -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DLADDER_EXERCISES=kappa_sigma -DLADDER_EXERCISES_TRACK=OFF >/dev/null &&
  cmake --build build-timeline --target ladder -j 16 >"$out/timeline-build.log" 2>&1 || { tail "$out/timeline-build.log"; exit 1; }
for size in workshop large; do
  build-timeline/bench/ladder run kappa_sigma --variants cuda_persistent --size $size --repetitions 3 \
    --min-time 0.001 --out /tmp/t.json >"$out/timeline-$size.log" 2>&1
  grep -E "^  cuda_persistent" "$out/timeline-$size.log"
done
patch -R -p1 <"$here/timeline.patch" >/dev/null
