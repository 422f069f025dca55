#!/usr/bin/env bash
# The device call of this experiment, from the repository root:
#   OUT=dir REV=commit bash reports/experiments/2026-11-25-h100-launches-and-duplex/run.sh
set -u
b=build-gpu
{ cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_GIT_REVISION="${REV:-}" && cmake --build $b -j 16; } >/tmp/build.log 2>&1 ||
  { tail -30 /tmp/build.log; exit 1; }
# Every test, on the H100 (CUDA) and NVIDIA's OpenCL as well as PoCL.
ctest --test-dir $b -j 8 --timeout 400 >"$OUT/tests.log" 2>&1
tail -4 "$OUT/tests.log"
: >"$OUT/sanitizer.log"
for tool in memcheck racecheck synccheck; do
  echo "== $tool convolution cuda,cuda_tiles,cuda_unrolled" >>"$OUT/sanitizer.log"
  compute-sanitizer --tool $tool --error-exitcode 9 $b/bench/ladder check convolution \
    --variants cuda,cuda_tiles,cuda_unrolled >>"$OUT/sanitizer.log" 2>&1
  echo "== exit $?" >>"$OUT/sanitizer.log"
done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/sanitizer.log"
# Launches past 65535 groups in y or z on NVIDIA's OpenCL: a tall image
# (labelling: 2^20 + 5 rows, 65537 tiles down) and a deep stack
# (median_filter: 70001 frames of 3 × 5), each against the serial rung.
{
  python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(1)
np.save("/tmp/tall.npy", (rng.random(((1 << 20) + 5, 3)) < 0.5).astype(np.uint8))
np.save("/tmp/deep.npy", rng.random((70001, 3, 5)).astype(np.float32))
PY
  for v in serial opencl; do
    $b/bench/ladder solve labelling --variant $v --input image=/tmp/tall.npy --output /tmp/tall-$v.npy; echo "labelling $v exit $?"
    $b/bench/ladder solve median_filter --variant $v --input image=/tmp/deep.npy --output /tmp/deep-$v.npy; echo "median_filter $v exit $?"
  done
  python3 -c "
import numpy as np
for n in ('tall', 'deep'):
    a, b = np.load(f'/tmp/{n}-serial.npy'), np.load(f'/tmp/{n}-opencl.npy')
    print(n, 'identical' if a.shape == b.shape and (a == b).all() else 'DIFFERENT')"
} >"$OUT/big-launches.log" 2>&1
cat "$OUT/big-launches.log" | tail -8
uptime >"$OUT/load.txt"
$b/bench/ladder run median_filter spot_finding --size large --variants cuda_streams --out "$OUT/streams-large.json" >"$OUT/runs.log" 2>&1
uptime >>"$OUT/load.txt"
grep -E "PCIe|^[a-z_]+ \(|cuda_streams" "$OUT/runs.log"
