#!/usr/bin/env bash
# On a second GPU machine of the kind: `ladder reproduce` of this run's
# workshop and large results. Like start.sh, in a process session of its
# own; writes /root/rep.
set -u
rev=$1
mkdir -p /root/rep /root/tree
tar --exclude=./build --exclude=./build-gpu -cf - . | tar -xf - -C /root/tree
cd /root/tree
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
{ cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_GIT_REVISION="$rev" &&
  cmake --build build-gpu --target ladder -j 16; } >/root/rep/build.log 2>&1 || { tail -30 /root/rep/build.log; exit 1; }
echo "built at $(date -u +%T)"
sleep 45
setsid bash -c '
  ladder=/root/tree/build-gpu/bench/ladder run=reports/runs/2026-11-27-h100-b
  for size in workshop large; do
    echo "$size $(date -u +%T) load $(cut -d" " -f1-3 /proc/loadavg)" >>/root/rep/steps
    $ladder reproduce $run/$size --out /root/rep/$size >/root/rep/$size.log 2>&1
  done
  echo "done $(date -u +%T)" >>/root/rep/steps' </dev/null >/dev/null 2>&1 &
echo "started at $(date -u +%T)"
