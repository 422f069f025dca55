#!/usr/bin/env bash
# SASS and per-instruction profile of spot_finding's cuda_sliding kernel and
# kappa_sigma's persistent kernel (workshop inputs), on one H100.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
out=${OUT:-/tmp/out}; mkdir -p "$out/p"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON -DLADDER_TESTS=OFF \
  -DLADDER_EXERCISES_TRACK=OFF -DCMAKE_CUDA_ARCHITECTURES=90 >"$out/p/cmake.log" 2>&1
cmake --build /tmp/b --target ladder -j 16 >"$out/p/build.log" 2>&1 || { tail -50 "$out/p/build.log"; exit 1; }
ladder=/tmp/b/bench/ladder
cuobjdump -sass "$ladder" >/tmp/all.sass 2>&1
python3 - <<'PY' >"$out/p/sass-functions.txt"
import re
name=None; buf={}
for line in open('/tmp/all.sass'):
    m=re.match(r'\s+Function : (\S+)', line)
    if m: name=m.group(1); buf[name]=[]; continue
    if name: buf[name].append(line)
for n,l in buf.items():
    if 'dispersion_sliding' in n or 'kappa_sigma_persistent' in n or 'clip_persistent' in n:
        open('/tmp/'+str(abs(hash(n)))+'.sass','w').writelines(l)
        print(n, abs(hash(n)), sum(1 for x in l if re.match(r'\s+/\*[0-9a-f]{4}\*/',x)))
PY
cp /tmp/[0-9]*.sass "$out/p/" 2>/dev/null
nvidia-smi -q -d CLOCK | head -40 >"$out/p/clocks.txt"
"$ladder" run spot_finding --variants cuda,cuda_sliding --repetitions 3 --out /tmp/spot.json >"$out/p/spot-run.log" 2>&1
"$ladder" run kappa_sigma --variants cuda,cuda_persistent --repetitions 3 --out /tmp/kappa.json >"$out/p/kappa-run.log" 2>&1
ncu --set full --import-source no --kernel-name regex:dispersion_sliding --launch-skip 1 --launch-count 1 \
  -o /tmp/spot "$ladder" run spot_finding --variants cuda_sliding --repetitions 1 --min-time 0.001 \
  --host-bandwidth 100 --device-bandwidth 2800 --out /tmp/x.json >"$out/p/ncu-spot.log" 2>&1
ncu -i /tmp/spot.ncu-rep --print-details all >"$out/p/ncu-spot.txt" 2>&1
ncu -i /tmp/spot.ncu-rep --page source --csv --print-source sass >"$out/p/ncu-spot-source.csv" 2>&1
ncu --set full --import-source no --kernel-name regex:persistent --launch-skip 1 --launch-count 1 \
  -o /tmp/kappa "$ladder" run kappa_sigma --variants cuda_persistent --repetitions 1 --min-time 0.001 \
  --host-bandwidth 100 --device-bandwidth 2800 --out /tmp/y.json >"$out/p/ncu-kappa.log" 2>&1
ncu -i /tmp/kappa.ncu-rep --print-details all >"$out/p/ncu-kappa.txt" 2>&1
ncu -i /tmp/kappa.ncu-rep --page source --csv --print-source sass >"$out/p/ncu-kappa-source.csv" 2>&1
tar czf "$out/profile.tar.gz" -C "$out" p && rm -rf "$out/p"
ls -la "$out"
