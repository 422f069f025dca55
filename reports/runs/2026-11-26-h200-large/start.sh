#!/usr/bin/env bash
# Stage 1 on the GPU machine: wheels, build, then the large reference run in its own
# process session (it outlives this call), writing into /root/ref.
set -u
rev=$1
export PYTHONPATH=/tmp/site
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
python3 -c "import cv2, astropy, scipy, cupy, numpy, matplotlib; print('cv2', cv2.__version__, 'astropy', astropy.__version__, 'scipy', scipy.__version__, 'numpy', numpy.__version__, 'cupy', cupy.__version__)" 2>&1 | tail -2
python3 -c "import cv2" 2>/dev/null || echo "NO OPENCV"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
mkdir -p /root/ref
{ cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_GIT_REVISION="$rev" &&
  cmake --build build-gpu --target ladder -j 16; } >/root/ref/build.log 2>&1 || { tail -30 /root/ref/build.log; exit 1; }
echo "built at $(date -u +%T)"
# The scripts the run reads, copied so that a later call's copy of the tree cannot touch them.
rm -rf /root/tree && mkdir -p /root/tree && cp -r scripts reports /root/tree/ && rm -rf /root/tree/reports/runs /root/tree/reports/experiments
mkdir -p /root/tree/build && ln -s "$PWD/build-gpu" /root/tree/build/gpu
sleep 45
cd /root/tree
setsid bash -c 'LADDER=/root/tree/build/gpu/bench/ladder PYTHON=python3 SIZE=large REPLICATES=2 \
  scripts/reference_run.sh /root/ref/run --repetitions 3 --time-budget 10 >/root/ref/reference_run.log 2>&1;
  echo $? >/root/ref/run.done' </dev/null >/dev/null 2>&1 &
echo "started at $(date -u +%T)"
