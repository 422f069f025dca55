#!/usr/bin/env bash
# `ladder reproduce --device-only` of this large run on a second, fresh
# nvidia-h200 machine: its device-timed rungs (CUDA, OpenCL and Python on
# the GPU) rerun an exercise at a time with the recorded options and
# compared; the CPU rungs and the peers, most of the run's 19 minutes, are
# left out. As start_large.sh: the tree copied to /root/src and built there
# (a later device call copies the working tree again), the machine's Python
# with NumPy 2.3.5 and PyOpenCL from .whl/ first on its path; the rerun in a
# process session of its own that outlives this call. Writes /root/rep;
# `steps` says when it is done.
#
#   bash reports/runs/2026-12-02-h200/large/reproduce_device.sh REVISION
set -u
rev=$1
rep=/root/rep here=reports/runs/2026-12-02-h200/large
rm -rf "$rep" /root/src && mkdir -p "$rep" /root/src
tar --exclude=./build --exclude=./build-gpu --exclude=./.whl -cf - . | tar -C /root/src -xf - || exit 1
export LADDER_VENV=/opt/torch/.venv
"$LADDER_VENV/bin/python3" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site .whl/*.whl || exit 1
mkdir -p /tmp/opencl-vendors && cp /etc/OpenCL/vendors/*.icd /tmp/opencl-vendors/ 2>/dev/null
[ -e /tmp/opencl-vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 >/tmp/opencl-vendors/nvidia.icd
cd /root/src || exit 1
nvidia-smi --query-gpu=name,uuid,pci.bus_id,driver_version,clocks.max.sm,power.limit --format=csv >"$rep/machine.txt" 2>&1
PYTHONPATH=/tmp/site "$LADDER_VENV/bin/python3" -c "import numpy, cupy, numba, pyopencl; print('numpy', numpy.__version__, 'cupy', cupy.__version__, 'numba', numba.__version__, 'pyopencl', pyopencl.VERSION_TEXT)" \
  >"$rep/python.txt" 2>&1
TESTS=0 SANITIZE=0 SIZES= THREADS= RANKS= LADDER_GIT_REVISION=$rev CUDA_ARCHITECTURES=90 \
  scripts/gpu_check.sh "$rep/build" || exit 1
echo "built at $(date -u +%T)"
setsid bash -c '
  cd /root/src
  export LADDER_VENV='"$LADDER_VENV"' PYTHONPATH=/tmp/site OCL_ICD_VENDORS=/tmp/opencl-vendors
  sleep 60  # the build settles (20 s was not enough: the first try began at load 5.94)
  echo "reproduce $(date -u +%T) load $(cut -d" " -f1-3 /proc/loadavg)" >'"$rep"'/steps
  build-gpu/bench/ladder reproduce '"$here"' --device-only --out '"$rep"'/rerun >'"$rep"'/reproduce.txt 2>&1
  echo "exit $? $(date -u +%T) load $(cut -d" " -f1-3 /proc/loadavg)" >>'"$rep"'/steps
  echo "done" >>'"$rep"'/steps' </dev/null >/dev/null 2>&1 &
echo "started at $(date -u +%T)"
