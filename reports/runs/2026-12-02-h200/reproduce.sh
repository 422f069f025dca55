#!/usr/bin/env bash
# On a second one-H200 machine (nvidia-h200): `ladder reproduce` of this
# run, then of the 2-GPU machine's one-GPU rows (taken on a 32-core host;
# compared here on a 16-core one). The same build and Python as start.sh;
# the reruns in a process session of their own that outlives this call.
# Writes /root/rep; wait_reproduce.sh packs it into $OUT.
#
#   bash reports/runs/2026-12-02-h200/reproduce.sh REVISION BUNDLE
#
# RUNS (default: both, this run first) names the run folders to reproduce.
set -u
rev=$1 bundle_tarball=$2
rep=/root/rep
rm -rf "$rep" && mkdir -p "$rep"
repo=$PWD
# Which machine this is (the reference did not record its GPU's UUID).
nvidia-smi --query-gpu=name,uuid,pci.bus_id,driver_version,clocks.max.sm,power.limit --format=csv >"$rep/machine.txt" 2>&1
echo "load before build: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$rep/machine.txt"
# The rungs' Python as in the reference: the machine's venv with NumPy 2.3.5
# and PyOpenCL first on the path, but only for the rung workers (a venv
# folder whose python3 puts them first); the peers get the machine's own stack.
"/opt/torch/.venv/bin/python3" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site .whl/*.whl || exit 1
mkdir -p /tmp/rung-venv/bin
printf '#!/bin/sh\nPYTHONPATH=/tmp/site exec /opt/torch/.venv/bin/python3 "$@"\n' >/tmp/rung-venv/bin/python3
chmod +x /tmp/rung-venv/bin/python3
mkdir -p /tmp/opencl-vendors && cp /etc/OpenCL/vendors/*.icd /tmp/opencl-vendors/ 2>/dev/null
[ -e /tmp/opencl-vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 >/tmp/opencl-vendors/nvidia.icd
/tmp/rung-venv/bin/python3 -c "import numpy, cupy, numba, pyopencl; print('numpy', numpy.__version__, 'cupy', cupy.__version__, 'numba', numba.__version__, 'pyopencl', pyopencl.VERSION_TEXT)" \
  2>&1 | tee "$rep/python.txt"
OPENMP_TARGET_BUNDLE=$bundle_tarball TESTS=0 SANITIZE=0 SIZES= THREADS= RANKS= LADDER_GIT_REVISION=$rev \
  CUDA_ARCHITECTURES=90 scripts/gpu_check.sh "$rep/build" || exit 1
echo "built at $(date -u +%T)"
setsid bash -c '
  cd "'"$repo"'"
  export LD_LIBRARY_PATH='"$repo"'/build-gpu/openmp-target-bundle/lib LADDER_VENV=/tmp/rung-venv
  export LADDER_PYTHON=/opt/torch/.venv/bin/python3 OCL_ICD_VENDORS=/tmp/opencl-vendors
  ladder='"$repo"'/build-gpu/bench/ladder
  sleep 30  # the build settles
  for run in '"${RUNS:-reports/runs/2026-12-02-h200 reports/runs/2026-11-28-h200x2/one-gpu}"'; do
    name=$(basename "$run")
    echo "$name $(date -u +%T) load $(cut -d" " -f1-3 /proc/loadavg)" >>'"$rep"'/steps
    $ladder reproduce "$run" --out '"$rep"'/"$name" >'"$rep"'/reproduce-"$name".txt 2>&1
  done
  echo "done $(date -u +%T) load $(cut -d" " -f1-3 /proc/loadavg)" >>'"$rep"'/steps' </dev/null >/dev/null 2>&1 &
echo "started at $(date -u +%T)"
