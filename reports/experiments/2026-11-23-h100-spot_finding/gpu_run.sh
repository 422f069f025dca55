#!/usr/bin/env bash
# What ran on the H100 machine for spot_finding (2026-11-23), writing into $1:
# build, the spot_finding tests, the workshop stack (all rungs, pageable;
# the CUDA rungs again pinned), the large stack pinned (naive left out: about
# 13 s a compute), a thread sweep of serial and openmp, and the peers.
set -uo pipefail
out=${1:?usage: gpu_run.sh OUTDIR}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv >"$out/log.txt" 2>&1
{ cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_EXERCISES=spot_finding -DLADDER_EXERCISES_TRACK=OFF -DLADDER_WERROR=ON &&
  cmake --build build-gpu -j 16; } >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
timeout 150 ctest --test-dir build-gpu -R "SpotFinding|spot" --output-on-failure -j 4 >"$out/tests.log" 2>&1
tail -25 "$out/tests.log" >>"$out/log.txt"
ladder=build-gpu/bench/ladder
run() { echo "== ladder run $*" >>"$out/log.txt"; timeout 150 "$ladder" run spot_finding "$@" >>"$out/log.txt" 2>&1; }
peers() { timeout 90 python3 reports/peers.py "$1" --ladder "$ladder" >>"$out/log.txt" 2>&1; }
run --size workshop --out "$out/results-workshop.json" && peers "$out/results-workshop.json"
run --size workshop --pinned --variants cuda,cuda_streams --out "$out/results-workshop-pinned.json"
run --size large --pinned --variants serial,openmp,opencl,cuda,cuda_streams --out "$out/results-large-pinned.json" &&
  peers "$out/results-large-pinned.json"
run --size workshop --variants serial,openmp --sweep threads=1,2,4,8,16 --out "$out/results-threads.json"
cat "$out/log.txt"
