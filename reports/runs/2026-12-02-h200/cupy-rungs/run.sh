#!/usr/bin/env bash
# On a fresh one-H200 machine (nvidia-h200): the python_cupy rungs that are
# new since the reference (batched_matmul, kappa_sigma, labelling), built,
# checked on every check case beside the cuda rung whose kernels they
# launch, then timed beside it, at the workshop and large sizes, three
# interleaved replicates (the reference's repetition policy), then
# compute-sanitizer's memcheck over their checks. Writes OUTDIR.
# LADDER (a built ladder; start_large.sh's) skips the wheels and the build;
# SIZES (default "workshop large") the sizes timed.
#
#   bash reports/runs/2026-12-02-h200/cupy-rungs/run.sh REVISION OUTDIR
set -u
rev=$1 out=$2
rm -rf "$out" && mkdir -p "$out"
exercises=(batched_matmul kappa_sigma labelling)
# The machine's Python (CuPy, Numba) with NumPy 2.3.5 first on the path, as the reference's rungs had it.
export LADDER_VENV=/opt/torch/.venv PYTHONPATH=/tmp/site
if [ -z "${LADDER:-}" ]; then
  "$LADDER_VENV/bin/python3" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
fi
"$LADDER_VENV/bin/python3" -c "import numpy, cupy; print('numpy', numpy.__version__, 'cupy', cupy.__version__)" \
  >"$out/python.txt" 2>&1
ladder=${LADDER:-}
if [ -z "$ladder" ]; then
  TESTS=0 SANITIZE=0 SIZES= THREADS= LADDER_GIT_REVISION=$rev CUDA_ARCHITECTURES=90 \
    scripts/gpu_check.sh "$out/build" || exit 1
  echo "built at $(date -u +%T)"
  ladder=build-gpu/bench/ladder
fi
for exercise in "${exercises[@]}"; do
  "$ladder" check "$exercise" --variants cuda,python_cupy
done >"$out/checks.txt" 2>&1
grep -E "^  (cuda|python_cupy) |passed" "$out/checks.txt"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "processes using a core before: $(ps -eo pcpu= | awk '$1 > 20' | wc -l)"
} >"$out/machine.txt"
for size in ${SIZES-workshop large}; do
  "$ladder" run "${exercises[@]}" --variants cuda,python_cupy --size "$size" --replicates 3 --repetitions 3 \
    --time-budget 10 --out "$out/results-$size.json"
done >"$out/run.log" 2>&1
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/machine.txt"
echo "timed at $(date -u +%T)"
for exercise in "${exercises[@]}"; do
  echo "== compute-sanitizer --tool memcheck: ladder check $exercise --variants python_cupy"
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 "$ladder" check "$exercise" --variants python_cupy \
    --hang-limit 110 2>&1 | grep -E "ERROR SUMMARY|python_cupy|passed|rror" | head -20
  echo "== exit ${PIPESTATUS[0]}"
done >"$out/sanitizer.txt" 2>&1
cat "$out/sanitizer.txt"
