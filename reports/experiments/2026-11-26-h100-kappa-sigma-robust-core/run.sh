#!/usr/bin/env bash
# On the GPU machine, from the repository root, with the robust core change
# in the tree: build kappa_sigma "after" (as is) and "before" (robust.patch
# reversed: the rung of f60db05), run the kappa_sigma tests and
# compute-sanitizer on "after", then time both interleaved at the workshop
# and large sizes. Writes into $OUT.
set -u
here=reports/experiments/2026-11-26-h100-kappa-sigma-robust-core
out=${OUT:?}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader | tee "$out/machine.txt"
configure() {  # BUILD_DIR
  cmake -S . -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_EXERCISES=kappa_sigma -DLADDER_EXERCISES_TRACK=OFF >/dev/null &&
    cmake --build "$1" --target ladder ladder_tests -j 16
}
{ configure build-after && patch -R -p1 <"$here/robust.patch" && configure build-before &&
  patch -p1 <"$here/robust.patch"; } >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
echo "built at $(date -u +%T)"
cuobjdump -sass build-after/solutions/CMakeFiles/ladder_solutions.dir/kappa_sigma/cuda_persistent.cu.o |
  grep -E "STL|LDL" >"$out/spills.txt"; echo "spill instructions: $(wc -l <"$out/spills.txt")"
ctest --test-dir build-after -R "[Kk]appa" --output-on-failure >"$out/tests.log" 2>&1; tail -3 "$out/tests.log"
for tool in memcheck racecheck synccheck; do
  timeout 300 compute-sanitizer --tool $tool --error-exitcode 9 build-after/bench/ladder check kappa_sigma \
    --variants cuda,cuda_persistent >>"$out/sanitizer.log" 2>&1
  echo "compute-sanitizer $tool: exit $?"
done
grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitizer.log"
echo "load before timing: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
for round in 1 2; do
  for size in workshop large; do
    for build in after before; do
      build-$build/bench/ladder run kappa_sigma --variants cuda_persistent --size $size \
        --out "$out/results-$size-$build-$round.json" >"$out/run-$size-$build-$round.log" 2>&1
      echo "$round $size $build: $(grep -E '^  cuda_persistent' "$out/run-$size-$build-$round.log")"
    done
  done
done
