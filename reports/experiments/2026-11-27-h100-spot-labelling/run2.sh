#!/usr/bin/env bash
# The second try at labelling's scan_chunk_counts (run.sh's 16 counts a
# thread, 64 bytes apart, was 3 µs slower): 1024 threads of 4 consecutive
# counts. Before (before/) and after (the working tree) built side by side,
# timed interleaved at 4096² noise and the large preset; check, sanitizers,
# and Nsight Compute of the five kernels at 4096².
set -u
here=reports/experiments/2026-11-27-h100-spot-labelling
out=${OUT:-/tmp/out}; r=/tmp/r2; mkdir -p "$r"
rm -rf /tmp/old-src && mkdir /tmp/old-src && cp -r . /tmp/old-src/ && cp -r "$here/before/." /tmp/old-src/
conf=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=OFF -DLADDER_TESTS=OFF -DLADDER_EXERCISES_TRACK=OFF -DCMAKE_CUDA_ARCHITECTURES=90)
(cmake -S /tmp/old-src -B /tmp/bo "${conf[@]}" && cmake --build /tmp/bo --target ladder -j 8) >"$r/build-old.log" 2>&1 &
(cmake -S . -B /tmp/bn "${conf[@]}" && cmake --build /tmp/bn --target ladder -j 8) >"$r/build-new.log" 2>&1
wait
[ -x /tmp/bo/bench/ladder ] && [ -x /tmp/bn/bench/ladder ] || { tail -40 "$r"/build-*.log; exit 1; }
echo "built $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$r/log.txt"
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$r/log.txt"
show() { grep -E "^  (cuda|rung)" | sed "s/^/$1: /" | tee -a "$r/log.txt"; }
for round in 1 2; do
  for which in old new; do
    b=/tmp/b${which:0:1}
    $b/bench/ladder run labelling --size large --param height=4096 --param width=4096 --variants cuda,cuda_rows \
      --repetitions 3 --out "$r/lab-$which-4096-$round.json" 2>&1 | show "labelling $which 4096 $round"
    $b/bench/ladder run labelling --size large --variants cuda,cuda_rows \
      --repetitions 3 --out "$r/lab-$which-large-$round.json" 2>&1 | show "labelling $which large $round"
  done
done
/tmp/bn/bench/ladder check labelling --variants cuda,cuda_rows >"$r/check.log" 2>&1; echo "check exit $?" | tee -a "$r/log.txt"
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 9 /tmp/bn/bench/ladder check labelling --variants cuda,cuda_rows \
    >"$r/sanitizer-$tool.log" 2>&1
  echo "$tool exit $? $(grep -h 'SUMMARY' "$r/sanitizer-$tool.log" | tail -1)" | tee -a "$r/log.txt"
done
for which in old new; do
  ncu --kernel-name 'regex:label_tile_rows|merge_tile_borders|count_roots|scan_chunk_counts|number_components' \
    --launch-skip 5 --launch-count 5 --section SpeedOfLight \
    /tmp/b${which:0:1}/bench/ladder run labelling --variants cuda_rows --size large --param height=4096 --param width=4096 \
    --repetitions 1 --min-time 0.001 --host-bandwidth 100 --device-bandwidth 2800 --out /tmp/x.json >"$r/ncu-$which.txt" 2>&1
  grep -E "^  [a-z<].*\(|Duration" "$r/ncu-$which.txt" | sed "s/^/ncu $which: /" | tee -a "$r/log.txt"
done
gzip "$r"/*.json
tar czf "$out/r2.tar.gz" -C /tmp r2
