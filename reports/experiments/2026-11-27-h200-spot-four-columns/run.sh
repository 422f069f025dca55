#!/usr/bin/env bash
# spot_finding cuda_sliding with four columns a lane (the working tree)
# against two (before/: the kernel at bb2c38b), built side by side on one
# machine and timed interleaved at the workshop and large sizes; then
# ladder check, the three compute-sanitizer tools, and Nsight Compute on
# the new kernel.
set -u
here=$(dirname "$0")
out=${OUT:-/tmp/out}; r=/tmp/r; mkdir -p "$r"
rm -rf /tmp/old-src && mkdir /tmp/old-src && cp -r . /tmp/old-src/ && cp -r "$here/before/." /tmp/old-src/
conf=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=OFF -DLADDER_TESTS=OFF -DLADDER_EXERCISES_TRACK=OFF -DCMAKE_CUDA_ARCHITECTURES=90)
(cmake -S /tmp/old-src -B /tmp/bo "${conf[@]}" && cmake --build /tmp/bo --target ladder -j 8) >"$r/build-old.log" 2>&1 &
(cmake -S . -B /tmp/bn "${conf[@]}" && cmake --build /tmp/bn --target ladder -j 8) >"$r/build-new.log" 2>&1
wait
[ -x /tmp/bo/bench/ladder ] && [ -x /tmp/bn/bench/ladder ] || { tail -40 "$r"/build-*.log; exit 1; }
echo "built $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$r/log.txt"
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$r/log.txt"
/tmp/bn/bench/ladder check spot_finding --variants cuda_sliding >"$r/check.log" 2>&1; echo "check exit $?" | tee -a "$r/log.txt"
show() { grep -E "^  (cuda|rung)" | sed "s/^/$1: /" | tee -a "$r/log.txt"; }
for round in 1 2; do
  for which in old new; do
    for size in workshop large; do
      /tmp/b${which:0:1}/bench/ladder run spot_finding --size $size --variants cuda_sliding --repetitions 3 \
        --out "$r/spot-$which-$size-$round.json" 2>&1 | show "spot $which $size $round"
    done
  done
done
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 9 /tmp/bn/bench/ladder check spot_finding --variants cuda_sliding \
    >"$r/sanitizer-$tool.log" 2>&1
  echo "$tool exit $? $(grep -h 'SUMMARY' "$r/sanitizer-$tool.log" | tail -1)" | tee -a "$r/log.txt"
done
ncu --section LaunchStats --section Occupancy --section SchedulerStats --section WarpStateStats --section InstructionStats \
  --section SpeedOfLight --kernel-name regex:dispersion_sliding --launch-skip 1 --launch-count 1 \
  /tmp/bn/bench/ladder run spot_finding --variants cuda_sliding --repetitions 1 --min-time 0.001 \
  --host-bandwidth 100 --device-bandwidth 2800 --out /tmp/x.json >"$r/ncu-new.txt" 2>&1
grep -E "Duration|Executed Instructions  |Registers Per|Achieved Occ|Theoretical Occ|Issue Slots|Grid Size" "$r/ncu-new.txt" | tee -a "$r/log.txt"
gzip "$r"/*.json
tar czf "$out/r.tar.gz" -C /tmp r
