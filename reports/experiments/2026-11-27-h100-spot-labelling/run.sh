#!/usr/bin/env bash
# Before (before/: HEAD's files) and after (the working tree) on one H100,
# built side by side and timed interleaved:
#   spot_finding cuda_sliding: the Σv² ring in shared memory instead of
#     registers (64 registers, not 92), and the run length forced by
#     SPOT_TURNS (a patch of the after build only) to see what the planner
#     should take;
#   labelling cuda/cuda_rows: scan_chunk_counts with 1024 threads of 16
#     counts (one pass at 4096²) instead of 256 of 4.
# Then ladder check and compute-sanitizer on both exercises' cuda rungs, and
# Nsight Compute on labelling's kernels at 4096².
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
here=reports/experiments/2026-11-27-h100-spot-labelling
out=${OUT:-/tmp/out}; r=/tmp/r; mkdir -p "$r"
rm -rf /tmp/old-src /tmp/new-src && mkdir /tmp/old-src /tmp/new-src && cp -r . /tmp/old-src/ && cp -r . /tmp/new-src/
cp -r "$here/before/." /tmp/old-src/
python3 - <<'PY'
p='/tmp/new-src/kernels/spot_finding/dispersion_sliding.cuh'
s=open(p).read()
old="  for (int turns = 4; turns <= 12; ++turns) {"
assert old in s
s=s.replace(old,"""  const char* forced = std::getenv("SPOT_TURNS");
  const int lo = forced ? std::atoi(forced) : 4, hi = forced ? lo : 12;
  for (int turns = lo; turns <= hi; ++turns) {""")
s=s.replace("#include <cstdint>","#include <cstdint>\n#include <cstdlib>",1)
open(p,'w').write(s)
PY
conf=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=OFF -DLADDER_TESTS=OFF -DLADDER_EXERCISES_TRACK=OFF -DCMAKE_CUDA_ARCHITECTURES=90)
(cmake -S /tmp/old-src -B /tmp/bo "${conf[@]}" && cmake --build /tmp/bo --target ladder -j 8) >"$r/build-old.log" 2>&1 &
(cmake -S /tmp/new-src -B /tmp/bn "${conf[@]}" && cmake --build /tmp/bn --target ladder -j 8) >"$r/build-new.log" 2>&1
wait
[ -x /tmp/bo/bench/ladder ] && [ -x /tmp/bn/bench/ladder ] || { tail -40 "$r"/build-*.log; exit 1; }
echo "built $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$r/log.txt"
show() { grep -E "^  (cuda|rung)" | sed "s/^/$1: /" | tee -a "$r/log.txt"; }
lab=(labelling --size large --param height=4096 --param width=4096 --variants cuda,cuda_rows --repetitions 3)
for round in 1 2; do
  for which in old new; do
    b=/tmp/b${which:0:1}
    for size in workshop large; do
      $b/bench/ladder run spot_finding --size $size --variants cuda_sliding --repetitions 3 \
        --out "$r/spot-$which-$size-$round.json" 2>&1 | show "spot $which $size $round"
    done
    $b/bench/ladder run "${lab[@]}" --out "$r/lab-$which-4096-$round.json" 2>&1 | show "labelling $which 4096 $round"
  done
done
for turns in 4 5 6 7 8 9 10 11 12; do
  for size in workshop large; do
    SPOT_TURNS=$turns /tmp/bn/bench/ladder run spot_finding --size $size --variants cuda_sliding --repetitions 2 \
      --out "$r/spot-turns$turns-$size.json" 2>&1 | show "spot turns $turns $size"
  done
done
for ex in spot_finding labelling; do
  rungs=$([ $ex = spot_finding ] && echo cuda_sliding || echo cuda,cuda_rows)
  /tmp/bn/bench/ladder check $ex --variants $rungs >"$r/check-$ex.log" 2>&1; echo "check $ex exit $?" | tee -a "$r/log.txt"
  for tool in memcheck racecheck synccheck; do
    compute-sanitizer --tool $tool --error-exitcode 9 /tmp/bn/bench/ladder check $ex --variants $rungs \
      >"$r/sanitizer-$ex-$tool.log" 2>&1
    echo "$tool $ex exit $? $(grep -h 'SUMMARY' "$r/sanitizer-$ex-$tool.log" | tail -1)" | tee -a "$r/log.txt"
  done
done
ncu --kernel-name 'regex:label_tile_rows|merge_tile_borders|count_roots|scan_chunk_counts|number_components' \
  --launch-skip 5 --launch-count 5 --section SpeedOfLight --section LaunchStats \
  /tmp/bn/bench/ladder run labelling --variants cuda_rows --size large --param height=4096 --param width=4096 \
  --repetitions 1 --min-time 0.001 --host-bandwidth 100 --device-bandwidth 2800 --out /tmp/x.json >"$r/ncu-labelling.txt" 2>&1
gzip "$r"/*.json
tar czf "$out/r.tar.gz" -C /tmp r
