#!/usr/bin/env bash
# On the GPU machine, from the repository root: this tree ("base") and the
# variants of this folder's patches, built there for labelling alone; the
# labelling tests and compute-sanitizer on each variant; Nsight Compute's
# duration of each kernel of one cuda call on 4096² noise in every build;
# then every build timed, interleaved, three rounds, on the workshop sky,
# 4096² noise (4- and 8-connected) and the large 8192² noise. Writes into
# $OUT, all of it in $OUT/all.tgz. Long: start it in a session of its own
# (OUT=/root/exp setsid bash run.sh) and collect $OUT in later calls.
set -u
here=reports/experiments/2026-11-26-h100-labelling-finds
out=${OUT:?}
variants=(l1 l2)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader | tee "$out/machine.txt"
configure() {  # SOURCE BUILD_DIR TARGET...
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_EXERCISES=labelling -DLADDER_EXERCISES_TRACK=OFF >/dev/null &&
    cmake --build "$2" --target "${@:3}" -j 8
}
for v in base "${variants[@]}"; do  # copies, so that a later call's copy of the tree cannot touch them
  rm -rf "/tmp/tree-$v" && mkdir -p "/tmp/tree-$v" && cp -r . "/tmp/tree-$v/" 2>/dev/null
  [ $v = base ] || (cd "/tmp/tree-$v" && patch -p1 -s <"$here/$v.patch") || { echo "patch $v failed"; exit 1; }
done
{
  configure /tmp/tree-base /tmp/build-base ladder &
  for v in "${variants[@]}"; do configure "/tmp/tree-$v" "/tmp/build-$v" ladder ladder_tests & done
  wait
} >"$out/build.log" 2>&1
for b in base "${variants[@]}"; do [ -x "/tmp/build-$b/bench/ladder" ] || { echo "build $b failed"; tail -40 "$out/build.log"; exit 1; }; done
echo "built at $(date -u +%T)"
for v in "${variants[@]}"; do
  "/tmp/build-$v/tests/ladder_tests" --gtest_filter='*Label*' >"$out/tests-$v.log" 2>&1
  echo "$v tests exit $?: $(tail -1 "$out/tests-$v.log")"
  for tool in memcheck racecheck synccheck; do
    compute-sanitizer --tool $tool --error-exitcode 9 "/tmp/build-$v/bench/ladder" check labelling \
      --variants cuda >>"$out/sanitizer-$v.log" 2>&1
    echo "$v compute-sanitizer $tool: exit $?"
  done
done
noise=(--size large --param height=4096 --param width=4096)
for b in base "${variants[@]}"; do
  ncu --metrics gpu__time_duration.sum -k 'regex:label_tiles|merge_tile_borders|count_roots|scan_chunk_counts|number_components' \
    --launch-skip 5 --launch-count 5 "/tmp/build-$b/bench/ladder" run labelling --variants cuda "${noise[@]}" \
    --repetitions 1 --min-time 0.001 --host-bandwidth 100 --device-bandwidth 2800 --out "/tmp/ncu-$b.json" \
    >"$out/ncu-$b.txt" 2>&1
  echo "$b ncu: $(grep -E 'label_tiles|merge_tile|count_roots|scan_chunk|number_comp|duration' "$out/ncu-$b.txt" | tr -s ' ' | paste -sd' ' | cut -c1-600)"
done
echo "load before timing: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
for round in 1 2 3; do
  for input in sky noise4 noise8 large; do
    case $input in
      sky) args=(--size workshop) ;;
      noise4) args=("${noise[@]}") ;;
      noise8) args=("${noise[@]}" --param connectivity=8) ;;
      large) args=(--size large) ;;
    esac
    for b in base "${variants[@]}"; do
      /tmp/build-$b/bench/ladder run labelling --variants cuda "${args[@]}" --host-bandwidth 100 \
        --out "$out/results-$input-$b-$round.json" >"$out/run-$input-$b-$round.log" 2>&1
      echo "$round $input $b: $(grep -E '^  cuda ' "$out/run-$input-$b-$round.log")"
    done
  done
done
echo "load after timing: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
tar czf /tmp/all.tgz -C "$out" . && mv /tmp/all.tgz "$out/all.tgz"
