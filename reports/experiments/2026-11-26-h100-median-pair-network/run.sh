#!/usr/bin/env bash
# On the GPU machine, from the repository root, with the pair network in the
# tree: build median_filter with it ("after") and with the two files of the
# commit before it ("before": before/median_filter.cuh and
# before/median_networks.hpp, one window's network per output), run the
# median_filter tests and compute-sanitizer on "after", then time both,
# interleaved, at the large size (64 × 2048² float32) for k = 5 and 7, and
# profile one launch of each k = 7 kernel. Writes into $OUT, and all of it
# into $OUT/all.tgz.
set -u
here=reports/experiments/2026-11-26-h100-median-pair-network
out=${OUT:?}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader | tee "$out/machine.txt"
configure() {  # SOURCE BUILD_DIR TARGET...
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_EXERCISES=median_filter -DLADDER_EXERCISES_TRACK=OFF >/dev/null &&
    cmake --build "$2" --target "${@:3}" -j 16
}
rm -rf /tmp/before-tree && mkdir -p /tmp/before-tree && cp -r . /tmp/before-tree/ 2>/dev/null
cp "$here/before/median_filter.cuh" /tmp/before-tree/kernels/median_filter/median_filter.cuh
cp "$here/before/median_networks.hpp" /tmp/before-tree/solutions/median_filter/median_networks.hpp
{ configure . /tmp/build-after ladder ladder_tests && configure /tmp/before-tree /tmp/build-before ladder; } >"$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log"; exit 1; }
echo "built at $(date -u +%T)"
/tmp/build-after/tests/ladder_tests --gtest_filter='*MedianFilter*' >"$out/tests.log" 2>&1; echo "tests exit $?"
tail -4 "$out/tests.log"
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 9 /tmp/build-after/bench/ladder check median_filter \
    --variants cuda,cuda_network >>"$out/sanitizer.log" 2>&1
  echo "compute-sanitizer $tool: exit $?"
done
grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitizer.log"
echo "load before timing: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
for round in 1 2; do
  for k in 7 5; do
    for build in after before; do
      /tmp/build-$build/bench/ladder run median_filter --variants cuda,cuda_network --size large --param size=$k \
        --time-budget 10 --host-bandwidth 100 \
        --out "$out/results-k$k-$build-$round.json" >"$out/run-k$k-$build-$round.log" 2>&1
      echo "$round k=$k $build: $(grep -E '^  cuda_network' "$out/run-k$k-$build-$round.log")"
    done
  done
done
echo "load after timing: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
for build in after before; do
  ncu --kernel-name regex:median_network --launch-skip 1 --launch-count 1 --section SpeedOfLight \
    --section LaunchStats --section Occupancy --section SchedulerStats --section ComputeWorkloadAnalysis \
    --section InstructionStats /tmp/build-$build/bench/ladder run median_filter --variants cuda_network \
    --size large --param size=7 --repetitions 1 --min-time 0.001 --host-bandwidth 100 --device-bandwidth 2800 \
    --out /tmp/ncu.json >"$out/ncu-$build.txt" 2>&1
  grep -E "Duration|Executed Instructions  |Issue Slots Busy|ALU" "$out/ncu-$build.txt" | sed "s/^/$build /"
done
# At most 8 files come back from the machine: the whole output in one archive.
tar czf /tmp/all.tgz -C "$out" . && mv /tmp/all.tgz "$out/all.tgz"
