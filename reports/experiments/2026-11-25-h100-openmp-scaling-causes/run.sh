#!/usr/bin/env bash
# The device call of this experiment, from the repository root: OUT=dir bash run.sh
set -u
here=reports/experiments/2026-11-25-h100-openmp-scaling-causes
{ lscpu; echo; numactl -H 2>/dev/null; cat /sys/kernel/mm/transparent_hugepage/enabled; } >"$OUT/lscpu.txt" 2>&1
g++ -O2 -std=c++20 -fopenmp -march=native -I. $here/primes_threads.cpp -o /tmp/primes_threads
cmake -S . -B build-omp -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=OFF -DLADDER_OPENCL=OFF \
  -DLADDER_TESTS=OFF -DLADDER_GIT_REVISION="${REV:-}" >/tmp/build.log 2>&1 &&
  cmake --build build-omp --target ladder -j 16 >>/tmp/build.log 2>&1 || { tail -20 /tmp/build.log; exit 1; }
steal() { awk '/^cpu /{print "steal " $9 " of " ($2+$3+$4+$5+$6+$7+$8+$9) " ticks"}' /proc/stat; }
{ uptime; steal; /tmp/primes_threads; steal; uptime; } >"$OUT/primes_threads.txt" 2>&1
for env in "default" "OMP_PROC_BIND=close OMP_PLACES=cores" "OMP_PROC_BIND=close OMP_PLACES=cores OMP_WAIT_POLICY=active"; do
  tag=$(echo "$env" | tr ' =' '_-' | tr 'A-Z' 'a-z')
  { echo "== $env"; uptime; steal
    env ${env/default/} build-omp/bench/ladder run primes median_filter kappa_sigma --size large --variants openmp \
      --sweep threads=1,16 --repetitions 5 --time-budget 10 --out "$OUT/results-$tag.json"
    steal; uptime; } >"$OUT/sweep-$tag.log" 2>&1
done
tail -3 "$OUT"/*.log "$OUT/primes_threads.txt"
