#!/usr/bin/env bash
# On the GPU machine, from the repository root: this tree ("base") and five
# variants, each this tree with one patch of this folder applied, built
# there for convolution or histogram alone; their tests and
# compute-sanitizer on each variant; then every build timed, interleaved,
# three rounds: convolution cuda_unrolled at the workshop size, histogram
# cuda at the workshop (2^24) and large (2^28) sizes. SASS instruction
# counts of the convolution kernel in each build. Writes into $OUT, all
# of it in $OUT/all.tgz. Long: start it in a session of its own
# (OUT=/root/exp setsid bash run.sh) and collect $OUT in later calls.
set -u
here=reports/experiments/2026-11-26-h100-convolution-histogram-variants
out=${OUT:?}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader | tee "$out/machine.txt"
configure() {  # SOURCE BUILD_DIR EXERCISES TARGET...
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 "-DLADDER_EXERCISES=$3" -DLADDER_EXERCISES_TRACK=OFF >/dev/null &&
    cmake --build "$2" --target "${@:4}" -j 6
}
declare -A exercise=([c1]=convolution [c2]=convolution [h1]=histogram [h2]=histogram [h3]=histogram)
for v in base "${!exercise[@]}"; do  # copies, so that a later call's copy of the tree cannot touch them
  rm -rf "/tmp/tree-$v" && mkdir -p "/tmp/tree-$v" && cp -r . "/tmp/tree-$v/" 2>/dev/null
  [ $v = base ] || (cd "/tmp/tree-$v" && patch -p1 -s <"$here/$v.patch") || { echo "patch $v failed"; exit 1; }
done
{
  configure /tmp/tree-base /tmp/build-base "convolution;histogram" ladder &
  for v in "${!exercise[@]}"; do configure "/tmp/tree-$v" "/tmp/build-$v" "${exercise[$v]}" ladder ladder_tests & done
  wait
} >"$out/build.log" 2>&1
for b in base "${!exercise[@]}"; do [ -x "/tmp/build-$b/bench/ladder" ] || { echo "build $b failed"; tail -40 "$out/build.log"; exit 1; }; done
echo "built at $(date -u +%T)"
for v in "${!exercise[@]}"; do
  filter='*Convolution*'; [ "${exercise[$v]}" = histogram ] && filter='*Histogram*'
  "/tmp/build-$v/tests/ladder_tests" --gtest_filter="$filter" >"$out/tests-$v.log" 2>&1
  echo "$v tests exit $?: $(tail -1 "$out/tests-$v.log")"
  variant=cuda_unrolled; [ "${exercise[$v]}" = histogram ] && variant=cuda
  for tool in memcheck racecheck synccheck; do
    compute-sanitizer --tool $tool --error-exitcode 9 "/tmp/build-$v/bench/ladder" check "${exercise[$v]}" \
      --variants $variant >>"$out/sanitizer-$v.log" 2>&1
    echo "$v compute-sanitizer $tool: exit $?"
  done
done
for b in base c1 c2; do
  cuobjdump -sass "/tmp/build-$b/bench/ladder" 2>/dev/null |
    awk '/Function : .*convolve_unrolledILi15ELi15E/{on=1; next} /Function :/{on=0} on' |
    grep -oE '^ +/\*[0-9a-f]{4}\*/ +[A-Z][A-Z0-9_.]*' | awk '{sub(/\..*/, "", $2); print $2}' | sort | uniq -c |
    sort -rn >"$out/sass-$b.txt"
  echo "$b SASS: $(head -8 "$out/sass-$b.txt" | tr -s ' ' | tr '\n' ' ')"
done
echo "load before timing: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
for round in 1 2 3; do
  for b in base c1 c2; do
    /tmp/build-$b/bench/ladder run convolution --variants cuda_unrolled --size workshop --host-bandwidth 100 \
      --out "$out/results-convolution-$b-$round.json" >"$out/run-convolution-$b-$round.log" 2>&1
    echo "$round convolution $b: $(grep -E '^  cuda_unrolled ' "$out/run-convolution-$b-$round.log")"
  done
  for size in workshop large; do
    for b in base h1 h2 h3; do
      /tmp/build-$b/bench/ladder run histogram --variants cuda --size $size --host-bandwidth 100 \
        --out "$out/results-histogram-$size-$b-$round.json" >"$out/run-histogram-$size-$b-$round.log" 2>&1
      echo "$round histogram $size $b: $(grep -E '^  cuda ' "$out/run-histogram-$size-$b-$round.log")"
    done
  done
done
echo "load after timing: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
tar czf /tmp/all.tgz -C "$out" . && mv /tmp/all.tgz "$out/all.tgz"
