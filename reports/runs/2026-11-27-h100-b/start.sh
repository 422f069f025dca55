#!/usr/bin/env bash
# On the GPU machine: wheels, the build, then in a process session of its own
# (it outlives this call, which is limited to 10 minutes), one after the other:
# the reference run at the workshop size (2 replicates) and at the large size
# (1 replicate), then after.sh: compute-sanitizer over every CUDA rung and
# the issue-20 inputs that are not presets (labelling 4096² and 8-connected,
# median k = 7). Writes /root/ref.
# (The 2026-11-27-h100 run's scripts, with solutions/ copied too: each
# exercise's peers live there, and that run's copy left them out.)
set -u
rev=$1
export PYTHONPATH=/tmp/site
# astropy's wheels only where they came with the tree (this run's did not).
if ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
fi
python3 -c "import cv2, scipy, cupy, numpy, matplotlib; print('cv2', cv2.__version__, 'scipy', scipy.__version__, 'numpy', numpy.__version__, 'cupy', cupy.__version__)" 2>&1 | tail -2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
mkdir -p /root/ref
{ cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_GIT_REVISION="$rev" &&
  cmake --build build-gpu --target ladder -j 16; } >/root/ref/build.log 2>&1 || { tail -30 /root/ref/build.log; exit 1; }
echo "built at $(date -u +%T)"
# The scripts the runs read, copied so that a later call's copy of the tree cannot touch them.
rm -rf /root/tree && mkdir -p /root/tree && cp -r scripts reports solutions /root/tree/ && rm -rf /root/tree/reports/runs /root/tree/reports/experiments
mkdir -p /root/tree/build && ln -s "$PWD/build-gpu" /root/tree/build/gpu
cp "$(dirname "$0")/after.sh" /root/tree/after.sh
repo=$PWD
sleep 45
cd /root/tree
setsid bash -c '
  export LADDER=/root/tree/build/gpu/bench/ladder PYTHON=python3
  echo "workshop $(date -u +%T)" >/root/ref/steps
  SIZE=workshop REPLICATES=2 scripts/reference_run.sh /root/ref/workshop --repetitions 3 --time-budget 10 \
    >/root/ref/workshop.log 2>&1
  echo "large $(date -u +%T)" >>/root/ref/steps
  SIZE=large REPLICATES=1 scripts/reference_run.sh /root/ref/large --repetitions 3 --time-budget 5 \
    >/root/ref/large.log 2>&1
  echo "after $(date -u +%T)" >>/root/ref/steps
  bash /root/tree/after.sh "'"$rev"'" "'"$repo"'" >/root/ref/after.log 2>&1
  echo "done $(date -u +%T)" >>/root/ref/steps' </dev/null >/dev/null 2>&1 &
echo "started at $(date -u +%T)"
