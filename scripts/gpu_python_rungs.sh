#!/usr/bin/env bash
# The Python rungs on the GPU machine (docs/gpu-machine.md): its Python has
# CuPy and numba-cuda but no network; wheels carried in .whl (a NumPy that
# its Numba supports, PyOpenCL) go first on the path. Builds `ladder`, checks
# every Python rung of EXERCISES beside the C++ ones and runs them at SIZES,
# writing logs and results into OUTDIR.
#
#   scripts/gpu_python_rungs.sh OUTDIR [EXERCISE...]
#
# LADDER_VENV (default /opt/torch/.venv, the machine's), DEADLINE (seconds
# after which no further check or run starts; default 480), SIZES (default
# workshop), VARIANTS (default: every rung; those an exercise has are checked
# and run), CHECK_VARIANTS (the checked ones, where they differ), BUILD
# (default build-gpu).
set -uo pipefail
out=${1:?usage: scripts/gpu_python_rungs.sh OUTDIR [EXERCISE...]}
shift
[ $# -gt 0 ] || set -- vector_add polygon_mask histogram primes
exercises=("$@")
build=${BUILD:-build-gpu}
export LADDER_VENV=${LADDER_VENV:-/opt/torch/.venv}
mkdir -p "$out"
if compgen -G ".whl/*.whl" >/dev/null; then
  "$LADDER_VENV/bin/python3" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
fi
# PyOpenCL's wheel brings its own ICD loader, which finds the platforms by
# /etc/OpenCL/vendors; the machine's names only PoCL there (its C++ rungs
# reach the GPU through the CUDA toolkit's libOpenCL). A folder of both,
# where the NVIDIA library is there (on the H200 machine, 2026-12-02,
# PyOpenCL then opened the GPU).
if [ ! -e /etc/OpenCL/vendors/nvidia.icd ] && ldconfig -p | grep -q libnvidia-opencl.so.1; then
  mkdir -p /tmp/opencl-vendors && cp /etc/OpenCL/vendors/*.icd /tmp/opencl-vendors/ 2>/dev/null
  echo libnvidia-opencl.so.1 >/tmp/opencl-vendors/nvidia.icd
  export OCL_ICD_VENDORS=/tmp/opencl-vendors
fi
"$LADDER_VENV/bin/python3" -c "import numpy, cupy, numba; print('numpy', numpy.__version__, 'cupy', cupy.__version__, 'numba', numba.__version__)" 2>&1 | tee "$out/python.txt"
{
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON -DLADDER_TESTS=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHITECTURES:-native}" -DLADDER_GIT_REVISION="${LADDER_GIT_REVISION:-}" &&
    cmake --build "$build" --target ladder -j "$(nproc)"
} >"$out/build.log" 2>&1 || { echo "build failed"; tail -30 "$out/build.log"; exit 1; }
ladder=$build/bench/ladder
"$ladder" list >"$out/list.txt" 2>&1
status=0
# The rungs of VARIANTS that the exercise has (all of them where VARIANTS is empty).
rungs_of() {  # rungs_of EXERCISE [LIST]
  "$ladder" list --json | python3 -c "
import json, sys
wanted = [w for w in '${2:-${VARIANTS:-}}'.split(',') if w]
for entry in json.load(sys.stdin):
    if entry['exercise'] == '$1':
        print(','.join(r['name'] for r in entry['rungs'] if not wanted or r['name'] in wanted))"
}
deadline=${DEADLINE:-480}
late() { [ "$SECONDS" -gt "$deadline" ] && echo "past the deadline ($deadline s): $1 left out" | tee -a "$out/left-out.txt"; }
for exercise in "${exercises[@]}"; do
  late "check $exercise" && continue
  "$ladder" check "$exercise" --variants "$(rungs_of "$exercise" "${CHECK_VARIANTS:-}")" >"$out/check-$exercise.txt" 2>&1 || status=1
  cat "$out/check-$exercise.txt"
done
# The GPU Python steps' planted mistakes.
bash tests/test_python_gpu_mistakes.sh "$PWD" "$ladder" >"$out/gpu-mistakes.txt" 2>&1 || status=1
grep -E "^(ok|FAILED)" "$out/gpu-mistakes.txt"
for size in ${SIZES-workshop}; do
  for exercise in "${exercises[@]}"; do
    late "run $exercise at $size" && continue
    "$ladder" run "$exercise" --size "$size" --variants "$(rungs_of "$exercise")" \
      --out "$out/results-$exercise-$size.json" >"$out/run-$exercise-$size.txt" 2>&1 || status=1
    grep -E "^$exercise|^  (cuda|opencl|python|serial|openmp)" "$out/run-$exercise-$size.txt"
  done
done
(cd "$out" && tar czf results.tgz --ignore-failed-read results-*.json run-*.txt check-*.txt list.txt python.txt \
  gpu-mistakes.txt left-out.txt 2>/dev/null; rm -f results-*.json run-*.txt check-*.txt)
exit $status
