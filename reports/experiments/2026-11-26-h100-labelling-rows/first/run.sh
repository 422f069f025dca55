#!/usr/bin/env bash
# On the GPU machine, from the repository root: ladder built there for
# labelling alone; the labelling tests and compute-sanitizer (memcheck,
# racecheck, synccheck) over `ladder check labelling --variants cuda_rows`;
# Nsight Compute's duration of each kernel of one cuda_rows call on 4096²
# noise (4- and 8-connected); then cuda and cuda_rows timed side by side,
# three rounds, on the workshop sky, 4096² noise (4 and 8) and the large
# 8192² noise (4 and 8). Writes into $OUT, all of it in $OUT/all.tgz. Long:
# start it in a session of its own (OUT=/root/exp setsid bash run.sh) and
# collect $OUT in later calls.
set -u
out=${OUT:?}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader | tee "$out/machine.txt"
rm -rf /tmp/tree && mkdir -p /tmp/tree && cp -r . /tmp/tree/ 2>/dev/null  # a later call's copy cannot touch it
{
  cmake -S /tmp/tree -B /tmp/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_EXERCISES=labelling -DLADDER_EXERCISES_TRACK=OFF &&
    cmake --build /tmp/build --target ladder ladder_tests -j 16
} >"$out/build.log" 2>&1 || { echo "build failed"; tail -40 "$out/build.log"; exit 1; }
echo "built at $(date -u +%T)"
ladder=/tmp/build/bench/ladder
/tmp/build/tests/ladder_tests --gtest_filter='*Label*' >"$out/tests.log" 2>&1
echo "tests exit $?: $(grep -E 'PASSED|FAILED|SKIPPED' "$out/tests.log" | tail -3 | paste -sd' ')"
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 9 $ladder check labelling --variants cuda_rows \
    >>"$out/sanitizer.log" 2>&1
  echo "compute-sanitizer $tool: exit $?"
done
noise=(--size large --param height=4096 --param width=4096)
for c in 4 8; do
  ncu --metrics gpu__time_duration.sum \
    -k 'regex:label_tile_rows|merge_tile_borders|count_roots|scan_chunk_counts|number_components' \
    --launch-skip 5 --launch-count 5 $ladder run labelling --variants cuda_rows "${noise[@]}" \
    --param connectivity=$c --repetitions 1 --min-time 0.001 --host-bandwidth 100 --device-bandwidth 2800 \
    --out "/tmp/ncu-$c.json" >"$out/ncu-noise4096-c$c.txt" 2>&1
  echo "ncu c$c: $(grep -E '^ +void|gpu__time_duration' "$out/ncu-noise4096-c$c.txt" | sed -E 's/\(const.*//' | tr -s ' ' | paste -sd' ')"
done
echo "load before timing: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
for round in 1 2 3; do
  for input in sky noise4 noise8 large4 large8; do
    case $input in
      sky) args=(--size workshop) ;;
      noise4) args=("${noise[@]}") ;;
      noise8) args=("${noise[@]}" --param connectivity=8) ;;
      large4) args=(--size large) ;;
      large8) args=(--size large --param connectivity=8) ;;
    esac
    $ladder run labelling --variants cuda,cuda_rows "${args[@]}" --host-bandwidth 100 \
      --out "$out/results-$input-$round.json" >"$out/run-$input-$round.log" 2>&1
    echo "$round $input: $(grep -E '^  cuda' "$out/run-$input-$round.log" | tr -s ' ' | paste -sd'|')"
  done
done
echo "load after timing: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
tar czf /tmp/all.tgz -C "$out" . && mv /tmp/all.tgz "$out/all.tgz"
