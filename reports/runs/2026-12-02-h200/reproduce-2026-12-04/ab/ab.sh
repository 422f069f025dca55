#!/usr/bin/env bash
# One-off (not committed): the CuPy clock's eviction queued at the evict step (old) or just before the
# start event (new), interleaved on one host: batched_matmul and convolution python_cupy beside cuda, large.
set -u
rep=$OUT/ab; mkdir -p $rep
nvidia-smi --query-gpu=name,uuid --format=csv >$rep/machine.txt; lscpu | grep "Model name" >>$rep/machine.txt
/opt/torch/.venv/bin/python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
mkdir -p /tmp/rung-venv/bin
printf '#!/bin/sh\nPYTHONPATH=/tmp/site exec /opt/torch/.venv/bin/python3 "$@"\n' >/tmp/rung-venv/bin/python3; chmod +x /tmp/rung-venv/bin/python3
TESTS=0 SANITIZE=0 SIZES= THREADS= RANKS= CUDA_ARCHITECTURES=90 scripts/gpu_check.sh $rep/build >$rep/build.log 2>&1 || { tail -20 $rep/build.log; exit 1; }
echo "built $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 20
export LADDER_VENV=/tmp/rung-venv
for i in 1 2 3; do for v in old new; do
  cp gpu_tmp/worker-$v.py bench/python/ladder_worker.py
  build-gpu/bench/ladder run batched_matmul convolution histogram --size large --variants cuda,python_cupy --repetitions 3 --time-budget 5 --out $rep/ab-$v-$i.json >$rep/ab-$v-$i.log 2>&1
  echo "$v $i $(date -u +%T) rc $?"
done; done
python3 - $rep <<'PY'
import json, sys, glob
for f in sorted(glob.glob(sys.argv[1] + "/ab-*.json")):
    d = json.load(open(f)); probe = d["context"]["readings"]["machine_probe"]["scalar_chain_s"]
    print(f.split("/")[-1], "probe %.2f ms" % (1e3 * min(probe)), " ".join("%s/%s %.1f" % (e["exercise"][:5], r["rung"], 1e6 * r["timings"]["compute"]["median_s"]) for e in d["results"] for r in e["rungs"] if r["status"] == "ok"))
PY
