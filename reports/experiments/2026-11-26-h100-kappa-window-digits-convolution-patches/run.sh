#!/usr/bin/env bash
# On the GPU machine, from the repository root, with both changes in the
# tree: "base" is the tree with both patches of this folder reversed (the
# kernels of 6a49c28), k1 (kappa_sigma: the window sorted by its second
# digit) and c1 (convolution: the tile copied in patches of 8 x 4) each
# base with one patch. Each built for its exercise alone; tests and
# compute-sanitizer (memcheck, racecheck, synccheck) on each variant; then
# base and variant timed interleaved, three rounds. Writes into $OUT.
set -u
here=reports/experiments/2026-11-26-h100-kappa-window-digits-convolution-patches
out=${OUT:?}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader | tee "$out/machine.txt"
configure() {  # SOURCE BUILD_DIR EXERCISES
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 "-DLADDER_EXERCISES=$3" -DLADDER_EXERCISES_TRACK=OFF >/dev/null &&
    cmake --build "$2" --target ladder ladder_tests -j 5
}
rm -rf /tmp/tree-base /tmp/tree-k1 /tmp/tree-c1 && mkdir -p /tmp/tree-base && cp -r . /tmp/tree-base/ 2>/dev/null
(cd /tmp/tree-base && patch -R -p1 -s <"$here/k1.patch" && patch -R -p1 -s <"$here/c1.patch") || { echo "reverse failed"; exit 1; }
for v in k1 c1; do
  cp -r /tmp/tree-base "/tmp/tree-$v" && (cd "/tmp/tree-$v" && patch -p1 -s <"$here/$v.patch") || { echo "patch $v failed"; exit 1; }
done
{
  configure /tmp/tree-base /tmp/build-base "kappa_sigma;convolution" &
  configure /tmp/tree-k1 /tmp/build-k1 kappa_sigma &
  configure /tmp/tree-c1 /tmp/build-c1 convolution &
  wait
} >"$out/build.log" 2>&1
for b in base k1 c1; do [ -x "/tmp/build-$b/bench/ladder" ] || { echo "build $b failed"; tail -40 "$out/build.log"; exit 1; }; done
echo "built at $(date -u +%T)"
declare -A exercise=([k1]=kappa_sigma [c1]=convolution) variant=([k1]=cuda_persistent [c1]=cuda_unrolled)
declare -A filter=([k1]='*KappaSigma*' [c1]='*Convolution*')
for v in k1 c1; do
  "/tmp/build-$v/tests/ladder_tests" --gtest_filter="${filter[$v]}" >"$out/tests-$v.log" 2>&1
  echo "$v tests exit $?: $(tail -1 "$out/tests-$v.log")"
  for tool in memcheck racecheck synccheck; do
    timeout 300 compute-sanitizer --tool $tool --error-exitcode 9 "/tmp/build-$v/bench/ladder" check "${exercise[$v]}" \
      --variants "${variant[$v]}" >>"$out/sanitizer-$v.log" 2>&1
    echo "$v compute-sanitizer $tool: exit $?"
  done
done
cuobjdump -sass /tmp/build-k1/bench/ladder 2>/dev/null | grep -cE "STL|LDL" | sed 's/^/k1 spill instructions: /'
echo "load before timing: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
for round in 1 2 3; do
  for v in k1 c1; do
    sizes="workshop large"; [ $v = c1 ] && sizes=workshop
    for size in $sizes; do
      for b in base $v; do
        /tmp/build-$b/bench/ladder run "${exercise[$v]}" --variants "${variant[$v]}" --size $size --host-bandwidth 100 \
          --out "$out/results-${exercise[$v]}-$size-$b-$round.json" >"$out/run-${exercise[$v]}-$size-$b-$round.log" 2>&1
        echo "$round ${exercise[$v]} $size $b: $(grep -E "^  ${variant[$v]} " "$out/run-${exercise[$v]}-$size-$b-$round.log")"
      done
    done
  done
done
