#!/usr/bin/env bash
# The fresh-input check (ladder run --fresh-inputs, every hand-in) on one
# H200: every rung of every exercise, CUDA and the Python GPU rungs
# included, checked again on fresh inputs after its timing, at the tiny and
# workshop sizes; the device rows' share of the bandwidth (a hand-in calls
# one above 1.5 implausible); the known-bad rungs' test. Setup as
# reports/runs/2026-12-02-h200/large/reproduce_device.sh. Writes $OUT.
set -u
out=/tmp/fresh-inputs  # tarred into $OUT at the end (at most 8 files come back)
rm -rf "$out" && mkdir -p "$out"
export LADDER_VENV=/opt/torch/.venv
"$LADDER_VENV/bin/python3" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site .whl/*.whl || exit 1
mkdir -p /tmp/opencl-vendors && cp /etc/OpenCL/vendors/*.icd /tmp/opencl-vendors/ 2>/dev/null
[ -e /tmp/opencl-vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 >/tmp/opencl-vendors/nvidia.icd
export PYTHONPATH=/tmp/site OCL_ICD_VENDORS=/tmp/opencl-vendors
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv >"$out/machine.txt" 2>&1
start=$(date +%s)
TESTS=0 SANITIZE=0 SIZES= THREADS= RANKS= CUDA_ARCHITECTURES=90 scripts/gpu_check.sh "$out/build" >"$out/build.txt" 2>&1 ||
  { echo "build failed"; tail -30 "$out/build.txt"; tar -C "$out" -czf "${OUT:?}/fresh-inputs.tgz" .; exit 1; }
echo "built in $(( $(date +%s) - start )) s"
ladder=build-gpu/bench/ladder
# EXERCISES (default: all) and SIZES (default: tiny workshop) narrow a second call.
for size in ${SIZES_RUN:-tiny workshop}; do
  echo "== $size $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  timeout 280 $ladder run ${EXERCISES:-} --size $size --fresh-inputs --min-time 0.02 --repetitions 3 --time-budget 5 \
    --out "$out/fresh-$size.json" >"$out/fresh-$size.txt" 2>&1
  echo "exit $?"
  grep -E " failed | FAIL" "$out/fresh-$size.txt" | head -20
done
python3 - "$out"/fresh-*.json <<'PY'
import json, sys
for path in sys.argv[1:]:
    rows = [(e["exercise"], g) for e in json.load(open(path))["results"] for g in e["rungs"]]
    status = {}
    for _, g in rows:
        status[g["status"]] = status.get(g["status"], 0) + 1
    gpu = [(ex, g["rung"], g["timings"]["fraction_of_ceiling"]["compute"]) for ex, g in rows
           if g["status"] == "ok" and g.get("device_kind") == "gpu"
           and "bandwidth" in g["timings"]["fraction_of_ceiling"].get("ceiling", "")]
    print(path.rsplit("/", 1)[1], status, "gpu bandwidth rows", len(gpu), "highest",
          sorted(gpu, key=lambda r: -r[2])[:4])
PY
echo "== known-bad $(date -u +%T)"
bash tests/test_known_bad_rungs.sh "$PWD" $ladder >"$out/known-bad.txt" 2>&1; echo "exit $?"; tail -2 "$out/known-bad.txt"
tar -C "$out" -czf "${OUT:?}/fresh-inputs.tgz" .
