#!/usr/bin/env bash
# The second device call: are some pairs of vCPUs siblings (one core's two
# hyperthreads on the physical host)? And does a 16 KiB segment (leaving L1
# room for the crossings and the pattern) scale better? OUT=dir bash run2.sh
set -u
here=reports/experiments/2026-11-25-h100-openmp-scaling-causes
mkdir -p /tmp/seg16/solutions/primes
sed 's/kSegment = 32 \* 1024/kSegment = 16 * 1024/' solutions/primes/segmented_sieve.hpp >/tmp/seg16/solutions/primes/segmented_sieve.hpp
g++ -O2 -std=c++20 -fopenmp -march=native -I. $here/primes_threads.cpp -o /tmp/p32
g++ -O2 -std=c++20 -fopenmp -march=native -I/tmp/seg16 -I. $here/primes_threads.cpp -o /tmp/p16
{
  uptime
  for cpu in 0 1 7 8 15; do OMP_PLACES="{$cpu}" OMP_PROC_BIND=true /tmp/p32 1 | sed "s/^/cpu $cpu: /"; done
  for pair in "0 1" "0 2" "0 8" "1 9" "7 15" "6 7"; do
    set -- $pair
    OMP_PLACES="{$1},{$2}" OMP_PROC_BIND=true /tmp/p32 2 | sed "s/^/cpus $1,$2: /"
  done
  for rep in 1 2 3; do
    for bin in p32 p16; do
      for t in 1 16; do OMP_PROC_BIND=close OMP_PLACES=cores /tmp/$bin $t | sed "s/^/$bin run $rep: /"; done
    done
  done
  uptime
} >"$OUT/pairs-and-segments.txt" 2>&1
cat "$OUT/pairs-and-segments.txt"
