#!/usr/bin/env bash
# The host ceiling at each CPU row's own working set: before (before/: the
# harness at ff0a2b8, one probe of 3 × 128 MiB arrays) and after (the
# working tree), CPU-only builds side by side on the GPU machine's host,
# vector_add and histogram at the workshop size, serial and openmp, two
# rounds interleaved. The fractions of the ceiling are in each results file.
set -u
here=$(dirname "$0")
out=${OUT:-/tmp/out}; r=/tmp/r; mkdir -p "$r"
rm -rf /tmp/old-src && mkdir /tmp/old-src && cp -r . /tmp/old-src/ && cp -r "$here/before/." /tmp/old-src/
conf=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=OFF -DLADDER_OPENCL=OFF -DLADDER_TESTS=OFF -DLADDER_EXERCISES_TRACK=OFF)
(cmake -S /tmp/old-src -B /tmp/bo "${conf[@]}" && cmake --build /tmp/bo --target ladder -j 8) >"$r/build-old.log" 2>&1 &
(cmake -S . -B /tmp/bn "${conf[@]}" && cmake --build /tmp/bn --target ladder -j 8) >"$r/build-new.log" 2>&1
wait
[ -x /tmp/bo/bench/ladder ] && [ -x /tmp/bn/bench/ladder ] || { tail -40 "$r"/build-*.log; exit 1; }
sleep 20  # let the build's load fall
{ echo "built $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"; nproc; lscpu | grep -E "Model name|L3"; } | tee "$r/log.txt"
for round in 1 2; do
  for which in old new; do
    for ex in vector_add histogram; do
      /tmp/b${which:0:1}/bench/ladder run $ex --variants serial,openmp --out "$r/$ex-$which-$round.json" 2>&1 |
        grep -E "host memory bandwidth|^  (serial|openmp)" | sed "s/^/$ex $which $round: /" | tee -a "$r/log.txt"
    done
  done
done
echo "load at the end $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$r/log.txt"
gzip "$r"/*.json
tar czf "$out/r.tar.gz" -C /tmp r
