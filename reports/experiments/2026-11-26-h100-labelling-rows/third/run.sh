#!/usr/bin/env bash
# On the GPU machine, from the repository root: the third round. This tree
# ("after": cuda_rows numbers the pixels in one pass with a decoupled
# look-back) and the tree before it ("before": this tree with
# changes.patch taken back), ladder built there for labelling alone; the
# labelling tests and compute-sanitizer (memcheck, racecheck, synccheck)
# over `ladder check labelling --variants cuda,cuda_rows`; Nsight
# Compute's duration of each kernel of one cuda_rows call on 4096² noise
# (4- and 8-connected); then cuda and cuda_rows of both builds timed side
# by side, interleaved, three rounds, on the workshop sky, 4096² noise (4
# and 8) and the large 8192² noise (4 and 8). Writes into $OUT, all of it
# in $OUT/all.tgz. Long: start it in a session of its own (OUT=/root/exp
# setsid bash run.sh) and collect $OUT in later calls.
set -u
here=reports/experiments/2026-11-26-h100-labelling-rows/third
out=${OUT:?}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader | tee "$out/machine.txt"
for b in after before; do  # copies, so that a later call's copy of the tree cannot touch them
  rm -rf /tmp/tree-$b && mkdir -p /tmp/tree-$b && cp -r . /tmp/tree-$b/ 2>/dev/null
done
(cd /tmp/tree-before && patch -R -p1 -s <"$here/changes.patch") || { echo "patch failed"; exit 1; }
configure() {  # TREE TARGET...
  cmake -S /tmp/tree-$1 -B /tmp/build-$1 -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_EXERCISES=labelling -DLADDER_EXERCISES_TRACK=OFF &&
    cmake --build /tmp/build-$1 --target "${@:2}" -j 8
}
{ configure after ladder ladder_tests & configure before ladder & wait; } >"$out/build.log" 2>&1
for b in after before; do [ -x /tmp/build-$b/bench/ladder ] || { echo "build $b failed"; tail -40 "$out/build.log"; exit 1; }; done
echo "built at $(date -u +%T)"
ladder=/tmp/build-after/bench/ladder
/tmp/build-after/tests/ladder_tests --gtest_filter='*Label*' >"$out/tests.log" 2>&1
echo "tests exit $?: $(grep -E 'PASSED|FAILED|SKIPPED' "$out/tests.log" | tail -3 | paste -sd' ')"
for tool in memcheck racecheck synccheck; do
  timeout 300 compute-sanitizer --tool $tool --error-exitcode 9 $ladder check labelling --variants cuda,cuda_rows \
    >>"$out/sanitizer.log" 2>&1
  echo "compute-sanitizer $tool: exit $?"
done
noise=(--size large --param height=4096 --param width=4096)
for c in 4 8; do
  ncu --metrics gpu__time_duration.sum \
    -k 'regex:label_tile_rows|merge_tile_borders|number_in_one_pass' \
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
    for b in after before; do
      /tmp/build-$b/bench/ladder run labelling --variants cuda,cuda_rows "${args[@]}" --host-bandwidth 100 \
        --out "$out/results-$input-$b-$round.json" >"$out/run-$input-$b-$round.log" 2>&1
      echo "$round $input $b: $(grep -E '^  cuda' "$out/run-$input-$b-$round.log" | tr -s ' ' | cut -d' ' -f2-5 | paste -sd'|')"
    done
  done
done
echo "load after timing: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
tar czf /tmp/all.tgz -C "$out" . && mv /tmp/all.tgz "$out/all.tgz"
