#!/usr/bin/env bash
# One-off (not committed): on a fresh nvidia-h200, build in /root/src, then in a session of its own:
# reproduce --device-only of the large part, then reproduce of the workshop part. Writes /root/rep.
set -u
rev=$1
rep=/root/rep
rm -rf "$rep" /root/src && mkdir -p "$rep" /root/src
tar --exclude=./build --exclude=./build-gpu -cf - . | tar -C /root/src -xf - || exit 1
cd /root/src || exit 1
nvidia-smi --query-gpu=name,uuid,pci.bus_id,driver_version,clocks.max.sm,power.limit --format=csv >"$rep/machine.txt" 2>&1
echo "load before build: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$rep/machine.txt"
lscpu | grep -E "Model name|^CPU\(s\)" >>"$rep/machine.txt"
"/opt/torch/.venv/bin/python3" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site .whl/*.whl || exit 1
mkdir -p /tmp/rung-venv/bin
printf '#!/bin/sh\nPYTHONPATH=/tmp/site exec /opt/torch/.venv/bin/python3 "$@"\n' >/tmp/rung-venv/bin/python3
chmod +x /tmp/rung-venv/bin/python3
mkdir -p /tmp/opencl-vendors && cp /etc/OpenCL/vendors/*.icd /tmp/opencl-vendors/ 2>/dev/null
[ -e /tmp/opencl-vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 >/tmp/opencl-vendors/nvidia.icd
/tmp/rung-venv/bin/python3 -c "import numpy, cupy, numba, pyopencl; print('numpy', numpy.__version__, 'cupy', cupy.__version__, 'numba', numba.__version__, 'pyopencl', pyopencl.VERSION_TEXT)" \
  >"$rep/python.txt" 2>&1
cat "$rep/python.txt"
OPENMP_TARGET_BUNDLE=/root/src/gpu_tmp/openmp-target-bundle.tar.xz TESTS=0 SANITIZE=0 SIZES= THREADS= RANKS= \
  LADDER_GIT_REVISION=$rev CUDA_ARCHITECTURES=90 scripts/gpu_check.sh "$rep/build" >"$rep/build.log" 2>&1 ||
  { tail -30 "$rep/build.log"; exit 1; }
tail -3 "$rep/build.log"
echo "built at $(date -u +%T)"
setsid bash -c '
  cd /root/src
  export LD_LIBRARY_PATH=/root/src/build-gpu/openmp-target-bundle/lib LADDER_VENV=/tmp/rung-venv
  export LADDER_PYTHON=/opt/torch/.venv/bin/python3 OCL_ICD_VENDORS=/tmp/opencl-vendors
  ladder=/root/src/build-gpu/bench/ladder
  sleep 45  # the build settles
  echo "large $(date -u +%T) load $(cut -d" " -f1-3 /proc/loadavg)" >>/root/rep/steps
  $ladder reproduce reports/runs/2026-12-02-h200/large --device-only --out /root/rep/large >/root/rep/reproduce-large.txt 2>&1
  echo "workshop $(date -u +%T) exit $? load $(cut -d" " -f1-3 /proc/loadavg)" >>/root/rep/steps
  $ladder reproduce reports/runs/2026-12-02-h200 --device-only --out /root/rep/workshop >/root/rep/reproduce-workshop.txt 2>&1
  echo "done $(date -u +%T) exit $? load $(cut -d" " -f1-3 /proc/loadavg)" >>/root/rep/steps' </dev/null >/dev/null 2>&1 &
echo "started at $(date -u +%T)"
