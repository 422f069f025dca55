#!/usr/bin/env bash
# On the GPU machine, from the repository root: histogram's cuda rung with
# its blocks rounded up to whole rounds over the SMs ("after", this tree)
# and without ("before": tried/cuda.cu, the commit before), both built
# there; the histogram tests and compute-sanitizer on "after"; then both
# timed, interleaved, three rounds, at 2^24 (workshop) and 2^28 (large).
# Writes into $OUT, and all of it into $OUT/all.tgz.
set -u
here=reports/experiments/2026-11-26-h100-histogram-whole-rounds
out=${OUT:?}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader | tee "$out/machine.txt"
configure() {  # SOURCE BUILD_DIR TARGET...
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_EXERCISES=histogram -DLADDER_EXERCISES_TRACK=OFF >/dev/null &&
    cmake --build "$2" --target "${@:3}" -j 16
}
rm -rf /tmp/before-tree && mkdir -p /tmp/before-tree && cp -r . /tmp/before-tree/ 2>/dev/null
cp "$here/tried/cuda.cu" /tmp/before-tree/solutions/histogram/cuda.cu
{ configure . /tmp/build-after ladder ladder_tests && configure /tmp/before-tree /tmp/build-before ladder; } \
  >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
echo "built at $(date -u +%T)"
/tmp/build-after/tests/ladder_tests --gtest_filter='*Histogram*' >"$out/tests.log" 2>&1; echo "tests exit $?"
tail -3 "$out/tests.log"
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 9 /tmp/build-after/bench/ladder check histogram \
    --variants cuda >>"$out/sanitizer.log" 2>&1
  echo "compute-sanitizer $tool: exit $?"
done
echo "load before timing: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
for round in 1 2 3; do
  for size in workshop large; do
    for build in after before; do
      /tmp/build-$build/bench/ladder run histogram --variants cuda --size $size --host-bandwidth 100 \
        --out "$out/results-$size-$build-$round.json" >"$out/run-$size-$build-$round.log" 2>&1
      echo "$round $size $build: $(grep -E '^  cuda ' "$out/run-$size-$build-$round.log")"
    done
  done
done
echo "load after timing: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
tar czf /tmp/all.tgz -C "$out" . && mv /tmp/all.tgz "$out/all.tgz"
