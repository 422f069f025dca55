#!/usr/bin/env bash
# On the GPU machine: YACCLAB's BUF and BKE beside labelling's cuda_rows and
# cuda on the same 4096² noise (density 0.5, seed 1), at 8-connectivity (the
# only one BUF and BKE do), and cuda_rows at 4-connectivity (the issue's
# target). YACCLAB's sources travel in .yacclab/ (prittt/YACCLAB at
# 54e43543a02ff9966124c4bc41a5eda568aa8a06, not in this repository); their
# kernels are cut out by awk, up to each file's class. Writes $OUT/bke.tgz.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=/tmp/bke && mkdir -p $out
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $out/machine.txt
{ cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=OFF \
    -DLADDER_MPI=OFF -DLADDER_NCCL=OFF -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build /tmp/b --target ladder -j 16; } >$out/build.log 2>&1 ||
  { tail -40 $out/build.log; exit 1; }
ladder=/tmp/b/bench/ladder
for a in BUF BKE; do
  l=$(echo $a | tr A-Z a-z)
  awk '/^class '$a' /{exit} !/^#include/' .yacclab/labeling_allegretti_2019_$a.cu >/tmp/${l}_kernels.cuh
done
$(command -v nvcc || echo /usr/local/cuda/bin/nvcc) -std=c++17 -O3 -arch=sm_90 -I /tmp $here/driver.cu -o /tmp/driver >$out/driver-build.log 2>&1 || { cat $out/driver-build.log; exit 1; }
echo "built $(date -u +%T)"
shape=(--size large --param height=4096 --param width=4096)
$ladder generate labelling "${shape[@]}" --param connectivity=8 --out /tmp/g8 >$out/generate.log 2>&1 || { cat $out/generate.log; exit 1; }
common=(--repetitions 5 --time-budget 5 --host-bandwidth 167 --device-bandwidth 3339)
for round in 1 2; do
  /tmp/driver /tmp/g8/image.npy /tmp/g8/expected_labels.npy 30 | tee $out/yacclab-$round.txt
  $ladder run labelling "${shape[@]}" --param connectivity=8 --variants cuda_rows,cuda "${common[@]}" \
    --out $out/ours8-$round.json >$out/ours8-$round.log 2>&1
  $ladder run labelling "${shape[@]}" --variants cuda_rows "${common[@]}" \
    --out $out/ours4-$round.json >$out/ours4-$round.log 2>&1
  grep -h -E '^ +cuda(_rows)? ' $out/ours8-$round.log $out/ours4-$round.log
  tar czf "$OUT/bke.tgz" -C /tmp bke
done
echo "done $(date -u +%T)"
