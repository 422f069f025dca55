#!/usr/bin/env bash
# On the GPU machine: spot_finding cuda_sliding with fewer registers a
# thread. The kernel uses 96 (no spills), which holds an SM to 21 one-warp
# blocks; its profile (2026-11-27-h100-b) has a warp ready in 58.5 % of
# cycles. Variants (variants/*.cuh, each the header with one change):
#   base          the committed kernel: 96 registers
#   min24         __launch_bounds__(32, 24): 80 registers, 144 B spilled
#   ahead1_min24  one row loaded ahead instead of two, and (32, 24): 80, 72 B
#   ahead1_min32  one row ahead, (32, 32): 64 registers, 236 B spilled
# Each is built once into its own binary, checked (`ladder check`), then the
# workshop size is timed in two rounds, the variants interleaved.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=/tmp/spotreg && mkdir -p $out
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $out/machine.txt
header=kernels/spot_finding/dispersion_sliding.cuh
cp $header /tmp/base.cuh
{ cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=OFF \
    -DLADDER_MPI=OFF -DLADDER_NCCL=OFF -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build /tmp/b --target ladder -j 16; } >$out/build.log 2>&1 ||
  { tail -40 $out/build.log; exit 1; }
cp /tmp/b/bench/ladder /tmp/ladder-base
echo "built base $(date -u +%T)"
variants="min24 ahead1_min24 ahead1_min32"
for v in $variants; do
  cp $here/variants/$v.cuh $header
  cmake --build /tmp/b --target ladder -j 16 >>$out/build.log 2>&1 || { echo "$v failed to build"; continue; }
  cp /tmp/b/bench/ladder /tmp/ladder-$v
  echo "built $v $(date -u +%T)"
done
cp /tmp/base.cuh $header
for v in base $variants; do
  /tmp/ladder-$v check spot_finding --variants cuda_sliding >$out/check-$v.log 2>&1
  echo "check $v exit $? $(tail -1 $out/check-$v.log)"
done
probes=(--host-bandwidth 167 --device-bandwidth 3339)
for round in 1 2; do
  for v in base $variants; do
    /tmp/ladder-$v run spot_finding --variants cuda_sliding --size workshop --repetitions 5 --time-budget 5 \
      "${probes[@]}" --out $out/$v-$round.json >$out/$v-$round.log 2>&1
    echo "$v round $round: $(grep -m1 -E '^ +cuda_sliding ' $out/$v-$round.log)"
    tar czf "$OUT/spotreg.tgz" -C /tmp spotreg
  done
done
echo "done $(date -u +%T)"
