#!/usr/bin/env bash
# On one GPU: (1) labelling's tile kernels as committed in 5871a88 (each
# row's root bits from a lane of its own; cuda_rows' last walk without the
# halving) checked, under compute-sanitizer, and timed against a674718's
# (before/) in two interleaved rounds; (2) `ladder solve` on several ranks
# with the rungs that keep each rank's data: every rank but 0 reads its own
# frames or rows from the .npy file, and the output must equal the
# reference. Writes into OUT.
set -uo pipefail
out=${1:?usage: run.sh OUT}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
build() {  # SOURCE EXERCISES
  cmake -S "$1" -B "$1/build-exp" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=OFF \
    -DLADDER_TESTS=OFF -DLADDER_EXERCISES_TRACK=OFF -DLADDER_EXERCISES="$2" \
    -DCMAKE_CUDA_ARCHITECTURES=native >/dev/null && cmake --build "$1/build-exp" --target ladder -j "$(nproc)" >/dev/null
}
rm -rf /tmp/before && mkdir /tmp/before && tar --exclude=./build --exclude='./build-*' -cf - . | tar -C /tmp/before -xf -
cp -r "$here/before/." /tmp/before/
{ date -u +%T; build . "labelling;median_filter;convolution" && build /tmp/before labelling; date -u +%T; } \
  >"$out/build.log" 2>&1 || { echo "build failed"; tail -30 "$out/build.log"; exit 1; }
after=build-exp/bench/ladder before=/tmp/before/build-exp/bench/ladder
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$out/machine.txt"
uptime >>"$out/machine.txt"

# (2) solve on ranks, the file read by each rank.
solve_case() {  # EXERCISE RUNG RANKS: solve on a generated case, compared with the reference output
  local ex=$1 rung=$2 ranks=$3 dir=/tmp/case-$1
  [ -d "$dir" ] || "$after" generate "$ex" --out "$dir" --size workshop --seed 7 >/dev/null || return 1
  local inputs=() f
  for f in "$dir"/*.npy; do
    case $(basename "$f") in expected_*) ;; *) inputs+=(--input "$(basename "$f" .npy)=$f") ;; esac
  done
  rm -f "/tmp/out-$rung-$ranks.npy"
  "$after" solve "$ex" --variant "$rung" --ranks "$ranks" "${inputs[@]}" --output "/tmp/out-$rung-$ranks.npy" 2>&1 | tail -3
  python3 -c "
import numpy as np, glob, sys
got = np.load('/tmp/out-$rung-$ranks.npy'); want = np.load(glob.glob('$dir/expected_*.npy')[0])
same = np.array_equal(got, want) if got.dtype.kind in 'iub' else np.allclose(got, want, rtol=1e-4, atol=1e-4)
print('$ex $rung ranks=$ranks', got.dtype, got.shape, 'equal to the reference' if same else 'DIFFERS')
sys.exit(0 if same else 1)"
}
{
  solve_case median_filter cuda_nccl_local 1
  solve_case median_filter cuda_nccl_local 2
  solve_case median_filter cuda_nccl_local 3
  solve_case median_filter cuda_nccl_streams 2
  solve_case median_filter cuda_nccl_streams 3
  solve_case convolution cuda_nccl_local 1  # NCCL needs a GPU a rank: one rank on this machine
  compute-sanitizer --tool memcheck --error-exitcode 9 "$after" solve median_filter --variant cuda_nccl_local \
    --input image=/tmp/case-median_filter/image.npy --output /tmp/out-memcheck.npy 2>&1 | tail -2
} 2>&1 | tee "$out/solve.txt"

# (1) labelling.
"$after" check labelling --variants cuda,cuda_rows 2>&1 | tail -3 | tee "$out/check.txt"
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 9 "$after" check labelling --variants cuda,cuda_rows \
    >"$out/sanitizer-$tool.log" 2>&1
  echo "$tool exit $?"
done | tee -a "$out/check.txt"
uptime >>"$out/machine.txt"
for round in 1 2; do
  for side in before after; do
    ladder=$before; [ $side = after ] && ladder=$after
    for c in 4 8; do
      tag=$side-$round-c$c
      "$ladder" run labelling --param image=noise --param height=4096 --param width=4096 --param connectivity=$c \
        --variants cuda,cuda_rows --out "$out/$tag.json" >"$out/$tag.txt" 2>&1
      grep -E "^  (cuda|cuda_rows) " "$out/$tag.txt" | sed "s/^/$tag /"
    done
  done
done | tee "$out/rounds.txt"
uptime >>"$out/machine.txt"
