#!/usr/bin/env bash
# On the GPU machine's host (a 16-core Xeon with AVX-512), from the
# repository root: is the serial median's 64-byte (AVX-512) network the
# right width there? Builds median_filter's CPU rungs three times, the
# vector width fixed at 64, 32 and 16 bytes (widest_fixed_rows's choice
# replaced by sed in a copy of the tree), and times serial and openmp at
# k = 3 and 5, interleaved, two rounds; then OpenCV's medianBlur on the same
# inputs (reports/peers.py into the 64-byte files). Writes $OUT/all.tgz.
set -u
out=${OUT:?}
lscpu | grep -E "Model name|Flags" | sed 's/\(Flags:\).*\(avx512[a-z_]*\).*/\1 ... \2 .../' >"$out/cpu.txt"
grep -o 'avx512[a-z0-9_]*' /proc/cpuinfo | sort -u | tr '\n' ' ' >>"$out/cpu.txt"
for bytes in 64 32 16; do
  rm -rf "/tmp/tree-$bytes" && mkdir -p "/tmp/tree-$bytes" && cp -r CMakeLists.txt cmake bench solutions given kernels exercises tests reports scripts "/tmp/tree-$bytes/" &&
    rm -rf "/tmp/tree-$bytes/reports/runs" "/tmp/tree-$bytes/reports/experiments"
  sed -i "s/static const int bytes = __builtin_cpu_supports(\"x86-64-v4\") ? 64 : __builtin_cpu_supports(\"x86-64-v3\") ? 32 : 16;/static const int bytes = $bytes;/" \
    "/tmp/tree-$bytes/solutions/median_filter/selection_network.hpp"
  grep -c "static const int bytes = $bytes;" "/tmp/tree-$bytes/solutions/median_filter/selection_network.hpp" >>"$out/build.log"
  cmake -S "/tmp/tree-$bytes" -B "/tmp/build-$bytes" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=OFF \
    -DLADDER_OPENCL=OFF -DLADDER_EXERCISES=median_filter -DLADDER_EXERCISES_TRACK=OFF >>"$out/build.log" 2>&1 &&
    cmake --build "/tmp/build-$bytes" --target ladder -j 16 >>"$out/build.log" 2>&1 || { tail -20 "$out/build.log"; exit 1; }
done
echo "built at $(date -u +%T); load $(cut -d' ' -f1-3 /proc/loadavg)"
sleep 20
echo "load before timing: $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/load.txt"
for round in 1 2; do
  for k in 3 5; do
    for bytes in 64 32 16; do
      /tmp/build-$bytes/bench/ladder run median_filter --variants serial,openmp --size workshop --param size=$k \
        --out "$out/results-k$k-$bytes-$round.json" >"$out/run-k$k-$bytes-$round.log" 2>&1
      echo "round $round k=$k ${bytes}B: $(grep -E '^  (serial|openmp) ' "$out/run-k$k-$bytes-$round.log" | awk '{print $1, $3, $4}' | tr '\n' ' ')"
    done
  done
done
for k in 3 5; do
  python3 reports/peers.py "$out/results-k$k-64-1.json" --ladder /tmp/build-64/bench/ladder >"$out/peers-k$k.log" 2>&1
  grep -E "medianBlur" "$out/peers-k$k.log" | sed "s/^/k=$k /"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/load.txt"
tar czf /tmp/all.tgz -C "$out" . && mv /tmp/all.tgz "$out/all.tgz"
