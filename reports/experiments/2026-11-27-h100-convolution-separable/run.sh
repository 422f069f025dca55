#!/usr/bin/env bash
# On the GPU machine: the cuda_separable rung's first run. Build (CUDA on,
# OpenCL off), the convolution tests, `ladder check` under compute-sanitizer's
# three tools, then the rung beside cuda_unrolled and cuda_fft: workshop
# (the Gaussian, rank 1), workshop with a random kernel (full rank),
# kernel sizes 7..31, large; one Nsight Compute profile. Writes $OUT/sep.tgz.
set -u
out=/tmp/sep && mkdir -p $out
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $out/machine.txt
{ cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=OFF \
    -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build /tmp/b --target ladder ladder_tests -j 16; } >$out/build.log 2>&1 ||
  { tail -40 $out/build.log; exit 1; }
echo "built $(date -u +%T)"
ladder=/tmp/b/bench/ladder
/tmp/b/tests/ladder_tests --gtest_filter='*Convolution*' >$out/tests.log 2>&1; echo "tests exit $?"; tail -4 $out/tests.log
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 9 $ladder check convolution --variants cuda_separable >$out/san-$tool.log 2>&1
  echo "$tool exit $? $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' $out/san-$tool.log | head -1)"
done
common=(--variants cuda_unrolled,cuda_separable,cuda_fft --repetitions 3 --time-budget 5)
$ladder run convolution --size workshop "${common[@]}" --replicates 2 --out $out/workshop.json >$out/workshop.log 2>&1
$ladder run convolution --size workshop --param kernel_values=random "${common[@]}" --out $out/random.json >$out/random.log 2>&1
$ladder run convolution --size workshop --sweep kernel_size=3,7,15,31 "${common[@]}" --out $out/sweep.json >$out/sweep.log 2>&1
$ladder run convolution --size large "${common[@]}" --out $out/large.json >$out/large.log 2>&1
grep -h -A12 "compute" $out/workshop.log | head -30
ncu --kernel-name regex:convolve_separable --launch-skip 1 --launch-count 1 --section SpeedOfLight \
  --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
  $ladder run convolution --variants cuda_separable --repetitions 1 --min-time 0.001 --host-bandwidth 100 \
  --device-bandwidth 2800 --out /tmp/ncu.json >$out/ncu-separable.txt 2>&1
echo "ncu exit $?"
tar czf "$OUT/sep.tgz" -C /tmp sep
