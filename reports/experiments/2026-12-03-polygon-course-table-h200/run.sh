#!/usr/bin/env bash
# polygon_mask at the course's own size (the workshop preset: 1024², 24
# vertices), every rung with a time budget that lets the pure-Python loops
# and Cython-with-tuples run (60 s a rung), three replicates: the course's
# table beside ours. On the development machine kind:
#
#   bash reports/experiments/2026-12-03-polygon-course-table-h200/run.sh OUTDIR
#
# and on a fresh nvidia-h200 machine (its Python, NumPy 2.3.5 and PyOpenCL
# from .whl/, as the one-H200 reference), GPU=1 builds first:
#
#   GPU=1 REPLICATES=2 bash reports/experiments/2026-12-03-polygon-course-table-h200/run.sh "$OUT" REVISION
set -u
out=$1
mkdir -p "$out"
ladder=build/release/bench/ladder
export LADDER_VENV=${LADDER_VENV:-$PWD/.venv}
if [ "${GPU:-0}" = 1 ] && [ -n "${LADDER:-}" ]; then  # built already (LADDER): its Python set up as below
  export LADDER_VENV=/opt/torch/.venv PYTHONPATH=/tmp/site OCL_ICD_VENDORS=/tmp/opencl-vendors
  ladder=$LADDER
elif [ "${GPU:-0}" = 1 ]; then
  export LADDER_VENV=/opt/torch/.venv PYTHONPATH=/tmp/site OCL_ICD_VENDORS=/tmp/opencl-vendors
  "$LADDER_VENV/bin/python3" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
  mkdir -p /tmp/opencl-vendors && cp /etc/OpenCL/vendors/*.icd /tmp/opencl-vendors/ 2>/dev/null
  [ -e /tmp/opencl-vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 >/tmp/opencl-vendors/nvidia.icd
  TESTS=0 SANITIZE=0 SIZES= THREADS= RANKS= LADDER_GIT_REVISION=${2:-} CUDA_ARCHITECTURES=90 \
    scripts/gpu_check.sh "$out/build" || exit 1
  ladder=build-gpu/bench/ladder
  sleep 20  # the build settles
fi
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) hardware threads"
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,uuid,clocks.max.sm --format=csv,noheader
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "processes using a core before: $(ps -eo pcpu= | awk '$1 > 20' | wc -l)"
} >"$out/machine.txt"
"$ladder" run polygon_mask --replicates "${REPLICATES:-3}" --repetitions 3 --time-budget 60 --out "$out/results-workshop.json" \
  >"$out/run.log" 2>&1
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/machine.txt"
gzip -9f "$out/results-workshop.json"
tail -n 25 "$out/run.log"
