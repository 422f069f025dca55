#!/usr/bin/env bash
# The one-H200 reference's large size, on a fresh one-H200 machine
# (nvidia-h200). The source tree is copied to /root/src first and built and
# run there: each later device call copies the working tree again, and the
# first attempt (2026-12-02, c6b01ac), run from that copy, ended 42 s in,
# as the next call began. Then the Python rungs' wheels, the build (the
# openmp_target rungs from the bundle made on the development machine
# kind), and, in a process session of its own that outlives this call:
# cupy-rungs/run.sh (the python_cupy rungs new since the workshop
# reference, checked, timed at the workshop size, memcheck), then, 30 s
# later, the run at the large size (one replicate: three do not fit in a
# session's device time), then the peers. Writes /root/ref; wait.sh packs
# it into $OUT.
#
#   bash reports/runs/2026-12-02-h200/start_large.sh REVISION BUNDLE
set -u
rev=$1 bundle_tarball=$(realpath "$2")
ref=/root/ref here=reports/runs/2026-12-02-h200
rm -rf "$ref" /root/src && mkdir -p "$ref" /root/src
tar --exclude=./build --exclude=./build-gpu --exclude=./.whl -cf - . | tar -C /root/src -xf - || exit 1
export LADDER_VENV=/opt/torch/.venv
# As start.sh: the machine's Python with NumPy 2.3.5 and PyOpenCL first on the path.
"$LADDER_VENV/bin/python3" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site .whl/*.whl || exit 1
mkdir -p /tmp/opencl-vendors && cp /etc/OpenCL/vendors/*.icd /tmp/opencl-vendors/ 2>/dev/null
[ -e /tmp/opencl-vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 >/tmp/opencl-vendors/nvidia.icd
cd /root/src || exit 1
PYTHONPATH=/tmp/site "$LADDER_VENV/bin/python3" -c "import numpy, cupy, numba, pyopencl; print('numpy', numpy.__version__, 'cupy', cupy.__version__, 'numba', numba.__version__, 'pyopencl', pyopencl.VERSION_TEXT)" \
  2>&1 | tee "$ref/python.txt"
OPENMP_TARGET_BUNDLE=$bundle_tarball TESTS=0 SANITIZE=0 SIZES= THREADS= RANKS= LADDER_GIT_REVISION=$rev \
  CUDA_ARCHITECTURES=90 scripts/gpu_check.sh "$ref/build" || exit 1
echo "built at $(date -u +%T)"
ladder=/root/src/build-gpu/bench/ladder
export LD_LIBRARY_PATH=/root/src/build-gpu/openmp-target-bundle/lib  # the openmp_target rungs' libomp, libomptarget
setsid bash -c '
  cd /root/src
  export LADDER='"$ladder"' LD_LIBRARY_PATH="'"$LD_LIBRARY_PATH"'" LADDER_VENV='"$LADDER_VENV"' PYTHON=python3
  export OCL_ICD_VENDORS=/tmp/opencl-vendors
  echo "cupy-rungs $(date -u +%T)" >'"$ref"'/steps
  PYTHONPATH=/tmp/site SIZES=workshop bash '"$here"'/cupy-rungs/run.sh '"$rev"' '"$ref"'/cupy-rungs \
    >'"$ref"'/cupy-rungs.log 2>&1
  sleep 30  # the checks settle
  echo "large $(date -u +%T)" >>'"$ref"'/steps
  PYTHONPATH=/tmp/site SIZE=large REPLICATES=1 PART=run scripts/reference_run.sh '"$ref"'/large \
    --repetitions 3 --time-budget 5 >'"$ref"'/large.log 2>&1
  echo "peers $(date -u +%T)" >>'"$ref"'/steps
  SIZE=large PART=peers scripts/reference_run.sh '"$ref"'/large >>'"$ref"'/large.log 2>&1
  echo "done $(date -u +%T)" >>'"$ref"'/steps' </dev/null >/dev/null 2>&1 &
echo "started at $(date -u +%T)"
