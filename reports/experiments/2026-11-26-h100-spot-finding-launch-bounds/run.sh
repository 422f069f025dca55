#!/usr/bin/env bash
# On the GPU machine, from the repository root: spot_finding's cuda_sliding
# kernel as it is (92 registers a thread at k = 3, one warp a block) and
# with __launch_bounds__(32, N), N = 24 and 28 blocks an SM, which cap the
# registers at 80 and 72 (some spilled) for more resident warps. Each built
# there; `ladder check` of each variant; then all three timed, interleaved,
# two rounds, at the workshop and large sizes. Writes $OUT/all.tgz.
set -u
out=${OUT:?}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$out/machine.txt"
variants="as-is 24 28"
for v in $variants; do
  rm -rf /tmp/tree-$v && mkdir -p /tmp/tree-$v && cp -r . /tmp/tree-$v/ 2>/dev/null
  [ "$v" = as-is ] || sed -i "s/__launch_bounds__(kSlidingLanes)/__launch_bounds__(kSlidingLanes, $v)/" \
    /tmp/tree-$v/kernels/spot_finding/dispersion_sliding.cuh
  { cmake -S /tmp/tree-$v -B /tmp/build-$v -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON \
      -DLADDER_OPENCL=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_EXERCISES=spot_finding \
      -DLADDER_EXERCISES_TRACK=OFF >/dev/null && cmake --build /tmp/build-$v --target ladder -j 16; } \
    >"$out/build-$v.log" 2>&1 || { tail -20 "$out/build-$v.log"; exit 1; }
  /tmp/build-$v/bench/ladder check spot_finding --variants cuda_sliding >"$out/check-$v.log" 2>&1
  echo "$v: check exit $?"
done
echo "load before timing: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
for round in 1 2; do
  for size in workshop large; do
    for v in $variants; do
      /tmp/build-$v/bench/ladder run spot_finding --variants cuda_sliding --size $size --host-bandwidth 100 \
        --out "$out/results-$size-$v-$round.json" >"$out/run-$size-$v-$round.log" 2>&1
      echo "$round $size $v: $(grep -E '^  cuda_sliding' "$out/run-$size-$v-$round.log")"
    done
  done
done
echo "load after timing: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
tar czf /tmp/all.tgz -C "$out" . && mv /tmp/all.tgz "$out/all.tgz"
