#!/usr/bin/env bash
# On the GPU machine: convolution's cuda_separable with two outputs a thread
# in the pass across (the working tree's kernel) against one output a thread
# (variants/one_output_a_thread.cuh, the kernel of the 2026-11-27-h100-b
# run). Each built into its own `ladder`; the new one checked; both timed at
# the workshop size in two rounds and the large size once, interleaved;
# then compute-sanitizer's three tools on the new one's `ladder check`.
# Writes $OUT/pairs.tgz after every step.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=/tmp/pairs && mkdir -p $out
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $out/machine.txt
header=kernels/convolution/convolution_separable.cuh
cp $header /tmp/new.cuh
cp $here/variants/one_output_a_thread.cuh $header
{ cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=OFF \
    -DLADDER_MPI=OFF -DLADDER_NCCL=OFF -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build /tmp/b --target ladder -j 16; } >$out/build.log 2>&1 ||
  { tail -40 $out/build.log; exit 1; }
cp /tmp/b/bench/ladder /tmp/ladder-old
cp /tmp/new.cuh $header
cmake --build /tmp/b --target ladder -j 16 >>$out/build.log 2>&1 || { tail -40 $out/build.log; exit 1; }
cp /tmp/b/bench/ladder /tmp/ladder-new
echo "built $(date -u +%T)"
pack() { tar czf "$OUT/pairs.tgz" -C /tmp pairs; }
/tmp/ladder-new check convolution --variants cuda_separable >$out/check.log 2>&1
echo "check exit $? $(tail -1 $out/check.log)"; pack
probes=(--repetitions 5 --time-budget 5 --host-bandwidth 167 --device-bandwidth 3339)
for round in 1 2; do
  for v in old new; do
    /tmp/ladder-$v run convolution --variants cuda_separable --size workshop "${probes[@]}" \
      --out $out/$v-workshop-$round.json >$out/$v-workshop-$round.log 2>&1
    echo "$v workshop round $round: $(grep -m1 -E '^ +cuda_separable ' $out/$v-workshop-$round.log)"
  done
  pack
done
for v in old new; do
  /tmp/ladder-$v run convolution --variants cuda_separable --size large "${probes[@]}" \
    --out $out/$v-large.json >$out/$v-large.log 2>&1
  echo "$v large: $(grep -m1 -E '^ +cuda_separable ' $out/$v-large.log)"
done
pack
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 9 /tmp/ladder-new check convolution --variants cuda_separable \
    >$out/san-$tool.log 2>&1
  echo "$tool exit $? $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' $out/san-$tool.log | head -1)"
  pack
done
echo "done $(date -u +%T)"
