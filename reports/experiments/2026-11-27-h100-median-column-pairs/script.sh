#!/usr/bin/env bash
# Call 2: median column sorts shared by row pairs (before/after, interleaved), its check and sanitizers; the ceiling.
set -u
exec > >(tee "$OUT/log.txt") 2>&1
mkdir -p /tmp/src /tmp/old && tar -xf build/head.tar -C /tmp/src && tar -xf build/old.tar -C /tmp/old
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv; uptime
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
for t in src old; do
  (cd /tmp/$t && cmake -S . -B /tmp/b-$t -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON -DLADDER_TESTS=OFF -DLADDER_EXERCISES_TRACK=OFF -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/cfg-$t.log 2>&1 && cmake --build /tmp/b-$t --target ladder -j 16 >/tmp/build-$t.log 2>&1) || { tail -30 /tmp/build-$t.log; exit 1; }
  echo "built $t $(date +%T)"
done
new=/tmp/b-src/bench/ladder old=/tmp/b-old/bench/ladder
cd /tmp/src
$new check median_filter 2>&1 | tail -25
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 9 $new check median_filter --variants cuda,cuda_network,cuda_quads,cuda_streams > /tmp/san-$tool.log 2>&1
  echo "sanitizer $tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san-$tool.log | tail -2 | tr '\n' ' ')"
done
uptime
for round in 1 2; do
  for which in old new; do
    echo "== round $round $which $(date +%T)"
    ${!which} run median_filter --size large --param size=7 --variants cuda_network,cuda_quads --out /tmp/median-$which-$round.json --host-bandwidth 100 2>&1 | grep -E "cuda_|device copy"
  done
  $new run median_filter --size workshop --param size=7 --variants cuda_network,cuda_quads --out /tmp/median-w-new-$round.json --host-bandwidth 100 2>&1 | grep -E "cuda_"
  $old run median_filter --size workshop --param size=7 --variants cuda_network,cuda_quads --out /tmp/median-w-old-$round.json --host-bandwidth 100 2>&1 | grep -E "cuda_"
done
for size in workshop large; do
  $new run vector_add --size $size --out /tmp/va-$size.json 2>&1 | grep -v "^    \.\.\."
done
tar -czf $OUT/results.tgz /tmp/median-*.json /tmp/va-*.json /tmp/san-*.log 2>/dev/null
echo "== end $(date +%T)"; uptime
