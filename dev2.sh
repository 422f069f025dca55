set -u
B=/tmp/b; mkdir -p $OUT
cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DLADDER_GIT_REVISION=$REV > $OUT/build.log 2>&1 && cmake --build $B -j16 --target ladder ladder_tests >> $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "build done $(date)"; uptime
$B/tests/ladder_tests --gtest_filter='*KappaSigma*' 2>&1 | tail -4
for tool in memcheck racecheck synccheck; do compute-sanitizer --tool $tool --error-exitcode 9 $B/bench/ladder check kappa_sigma --variants cuda_persistent > $OUT/san-$tool.log 2>&1; echo "$tool exit $?"; grep -E "SUMMARY" $OUT/san-$tool.log; done
$B/bench/ladder run kappa_sigma --variants cuda,cuda_persistent --out $OUT/ks-workshop.json 2>&1 | tee $OUT/ks.log
$B/bench/ladder run kappa_sigma --size large --variants cuda,cuda_persistent --out $OUT/ks-large.json 2>&1 | tee -a $OUT/ks.log
ncu --metrics gpu__time_duration.sum --csv $B/bench/ladder solve kappa_sigma --variant cuda_persistent --output /tmp/m.npy > $OUT/ncu.csv 2>&1; tail -3 $OUT/ncu.csv
uptime
timeout 360 $B/bench/ladder run primes labelling kappa_sigma convolution median_filter --size large --variants openmp --sweep threads=1,16 --repetitions 3 --time-budget 10 --out $OUT/threads-large.json 2>&1 | tee $OUT/threads.log | grep -v "\.\.\. "
uptime
cd $OUT && tar czf res.tgz *.json *.log *.csv && rm -f *.json
