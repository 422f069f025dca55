#!/usr/bin/env bash
# On a fresh GPU machine of the same kind: build `ladder` at the given
# revision, then, in a process session of its own, `ladder reproduce` of the
# workshop reference run (the same command line, replicates and peers),
# writing /root/ref (read back by ../wait.sh done SECONDS).
set -u
rev=$1
export PYTHONPATH=/tmp/site
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
mkdir -p /root/ref
{ cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_GIT_REVISION="$rev" &&
  cmake --build build-gpu --target ladder -j 16; } >/root/ref/build.log 2>&1 || { tail -30 /root/ref/build.log; exit 1; }
echo "built at $(date -u +%T)"
rm -rf /root/tree && mkdir -p /root/tree && cp -r scripts reports /root/tree/ && rm -rf /root/tree/reports/experiments
mkdir -p /root/tree/build && ln -s "$PWD/build-gpu" /root/tree/build/gpu
sleep 45
cd /root/tree
setsid bash -c '
  echo "rerun $(date -u +%T) load $(cut -d" " -f1-3 /proc/loadavg)" >/root/ref/steps
  /root/tree/build/gpu/bench/ladder reproduce reports/runs/2026-11-26-h100/workshop --out /root/ref/rerun \
    >/root/ref/reproduce.log 2>&1
  echo "exit $?" >>/root/ref/reproduce.log
  echo "done $(date -u +%T) load $(cut -d" " -f1-3 /proc/loadavg)" >>/root/ref/steps' </dev/null >/dev/null 2>&1 &
echo "started at $(date -u +%T)"
