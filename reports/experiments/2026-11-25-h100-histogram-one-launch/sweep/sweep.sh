#!/usr/bin/env bash
# kVectorsPerThread 4, 8, 16, 32 for histogram's cuda rung, two rounds, workshop and large.
out=$1; mkdir -p "$out"; build=build-gpu
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON -DCMAKE_CUDA_ARCHITECTURES=90 >"$out/build.log" 2>&1
for round in 1 2; do
  for v in 4 8 16 32; do
    cp ".ab/cuda.cu.v$v" solutions/histogram/cuda.cu
    cmake --build "$build" -j "$(nproc)" --target ladder >>"$out/build.log" 2>&1 || { tail -20 "$out/build.log"; exit 1; }
    for size in workshop large; do
      "$build/bench/ladder" run histogram --size "$size" --variants cuda --out "$out/results-$size-v$v-$round.json" >"$out/run-$size-v$v-$round.log" 2>&1
      echo "v$v $round $size: $(grep -E '^  cuda ' "$out/run-$size-v$v-$round.log")"
    done
  done
done
cp .ab/cuda.cu.v8 solutions/histogram/cuda.cu
