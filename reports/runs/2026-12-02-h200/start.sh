#!/usr/bin/env bash
# On a fresh one-H200 machine (nvidia-h200): the Python rungs' wheels, the
# build (the openmp_target rungs from the bundle made on the development
# machine kind), the checks that this run's new parts need first (PyOpenCL
# on the GPU, the GPU Python steps' planted mistakes), then, in a process
# session of its own that outlives this call (10 minutes at most), the
# reference run at the workshop size (3 interleaved replicates, the peers),
# then `ladder reproduce` of the 2-GPU machine's one-GPU rows. Writes
# /root/ref; wait.sh packs it into $OUT.
#
#   bash reports/runs/2026-12-02-h200/start.sh REVISION BUNDLE
set -u
rev=$1 bundle_tarball=$2
ref=/root/ref
rm -rf "$ref" && mkdir -p "$ref"
repo=$PWD
# The machine's Python (CuPy 14.2, Numba 0.68.0, numba-cuda) with NumPy 2.3.5
# (its Numba's) and PyOpenCL first on the path, from the wheels carried in .whl.
export LADDER_VENV=/opt/torch/.venv
"$LADDER_VENV/bin/python3" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site .whl/*.whl || exit 1
# PyOpenCL's own ICD loader reads /etc/OpenCL/vendors, which names PoCL only
# there; a folder naming the NVIDIA driver's library too.
mkdir -p /tmp/opencl-vendors && cp /etc/OpenCL/vendors/*.icd /tmp/opencl-vendors/ 2>/dev/null
[ -e /tmp/opencl-vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 >/tmp/opencl-vendors/nvidia.icd
ls /etc/OpenCL/vendors /tmp/opencl-vendors >"$ref/opencl-vendors.txt" 2>&1
PYTHONPATH=/tmp/site "$LADDER_VENV/bin/python3" -c "import numpy, cupy, numba, pyopencl; print('numpy', numpy.__version__, 'cupy', cupy.__version__, 'numba', numba.__version__, 'pyopencl', pyopencl.VERSION_TEXT)" \
  2>&1 | tee "$ref/python.txt"
OPENMP_TARGET_BUNDLE=$bundle_tarball TESTS=0 SANITIZE=0 SIZES= THREADS= RANKS= LADDER_GIT_REVISION=$rev \
  CUDA_ARCHITECTURES=90 scripts/gpu_check.sh "$ref/build" || exit 1
echo "built at $(date -u +%T)"
ladder=$repo/build-gpu/bench/ladder
export LD_LIBRARY_PATH=$repo/build-gpu/openmp-target-bundle/lib  # the openmp_target rungs' libomp, libomptarget
"$ladder" list >"$ref/list.txt" 2>&1
# First: what this run is the first to try on the GPU.
{
  for exercise in polygon_mask spot_finding; do
    PYTHONPATH=/tmp/site OCL_ICD_VENDORS=/tmp/opencl-vendors "$ladder" check "$exercise" --variants opencl,python_pyopencl
  done
  PYTHONPATH=/tmp/site bash tests/test_python_gpu_mistakes.sh "$repo" "$ladder"
} >"$ref/first-checks.txt" 2>&1
grep -E "^  (opencl|python_pyopencl) |^(ok|FAILED)" "$ref/first-checks.txt"
echo "checked at $(date -u +%T)"
# Whether PyOpenCL found the GPU with the vendors folder: the reference uses it only then.
opencl_vendors=""
grep -Eq "^  python_pyopencl +(pass|PASS)" "$ref/first-checks.txt" && opencl_vendors=/tmp/opencl-vendors
setsid bash -c '
  cd "'"$repo"'"
  export LADDER='"$ladder"' LD_LIBRARY_PATH="'"$LD_LIBRARY_PATH"'" LADDER_VENV='"$LADDER_VENV"' PYTHON=python3
  [ -n "'"$opencl_vendors"'" ] && export OCL_ICD_VENDORS='"$opencl_vendors"'
  sleep 30  # the build and checks settle
  echo "workshop $(date -u +%T)" >'"$ref"'/steps
  # The rungs with NumPy 2.3.5 on the path (Numba), the peers with the machine'"'"'s own stack.
  PYTHONPATH=/tmp/site SIZE=workshop REPLICATES=3 PART=run scripts/reference_run.sh '"$ref"'/workshop \
    --repetitions 3 --time-budget 10 >'"$ref"'/workshop.log 2>&1
  echo "peers $(date -u +%T)" >>'"$ref"'/steps
  SIZE=workshop REPLICATES=3 PART=peers scripts/reference_run.sh '"$ref"'/workshop >>'"$ref"'/workshop.log 2>&1
  echo "reproduce $(date -u +%T)" >>'"$ref"'/steps
  PYTHONPATH=/tmp/site "$LADDER" reproduce reports/runs/2026-11-28-h200x2/one-gpu --out '"$ref"'/reproduce-one-gpu \
    >'"$ref"'/reproduce-one-gpu.txt 2>&1
  echo "done $(date -u +%T)" >>'"$ref"'/steps' </dev/null >/dev/null 2>&1 &
echo "started at $(date -u +%T)"
