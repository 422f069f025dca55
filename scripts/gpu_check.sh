#!/usr/bin/env bash
# The GPU check run (docs/gpu-machine.md): on a machine with an NVIDIA GPU,
# build in a fresh folder, run every test, run compute-sanitizer's
# memcheck, racecheck and synccheck over every CUDA rung, then run the
# suite at the workshop and large sizes (pageable and pinned), writing the
# results JSON and logs into OUTDIR.
#
#   scripts/gpu_check.sh OUTDIR [EXERCISE...]
#
# CUDA_ARCHITECTURES (default: native), LADDER_GPU_BUILD (default:
# build-gpu) and LADDER_GIT_REVISION (the revision to record, where the
# machine's copy of .git is not current) override the build; SIZES (default "workshop large") and
# THREADS (default "1,2,4,8,16"; empty: no sweep) the runs (SIZES empty: none), SWEEP_SIZE
# (default workshop) the size of the thread sweep; TESTS=0 skips
# the tests and builds only `ladder` (TEST_FILTER: only the tests whose names match it) (for a second call that only runs the
# other sizes, or the sanitizer alone after a reference run); SANITIZE=0
# skips compute-sanitizer (SANITIZE_ONE_DEVICE=0 only over the one-device
# rungs, leaving the distributed rungs' memcheck); RANKS (default: the GPUs, where two or more) and
# RANK_COUNTS (default "1 RANKS") the distributed checks; RANK_SWEEP (default
# "1,2,...,RANKS" by doubling; empty: none) the sweep of the distributed
# rungs over ranks at the large size, transfer-inclusive scaling included;
# RANK_SIZES (default: SIZES) the sizes of their runs on RANKS ranks, and
# RANK_BESIDE (default serial,openmp,cuda,cuda_streams) the one-device rungs
# timed beside them. OPENMP_TARGET_BUNDLE (a tarball from
# scripts/openmp_target_bundle.sh, carried along) brings the openmp_target
# rungs, built where clang is, and their OpenMP runtime.
set -uo pipefail
out=${1:?usage: scripts/gpu_check.sh OUTDIR [EXERCISE...]}
shift
exercises=("$@")
build=${LADDER_GPU_BUILD:-build-gpu}
mkdir -p "$out"
status=0
targets=()
# No tests: build only what runs (the exercises track: its skeletons, the cuda_nccl ranks check).
[ "${TESTS:-1}" = 0 ] && targets=(--target ladder ladder_exercises)

bundle_option=()
if [ -n "${OPENMP_TARGET_BUNDLE:-}" ]; then
  bundle=$PWD/$build/openmp-target-bundle
  rm -rf "$bundle" && mkdir -p "$bundle" && tar -C "$bundle" -xJf "$OPENMP_TARGET_BUNDLE" ||
    { echo "cannot unpack OPENMP_TARGET_BUNDLE=$OPENMP_TARGET_BUNDLE"; exit 1; }
  bundle_option=(-DLADDER_OPENMP_TARGET_BUNDLE="$bundle")
  export LD_LIBRARY_PATH=$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}  # the rungs' libomp and libomptarget
fi

{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv || true
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=ON -DLADDER_OPENCL=ON "${bundle_option[@]}" \
    -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHITECTURES:-native}" -DLADDER_GIT_REVISION="${LADDER_GIT_REVISION:-}" &&
    cmake --build "$build" "${targets[@]}" -j "$(nproc)"
} >"$out/build.log" 2>&1 || { echo "build failed: see $out/build.log"; tail -30 "$out/build.log"; exit 1; }

if [ "${TESTS:-1}" != 0 ]; then
  ctest --test-dir "$build" --output-on-failure -j 4 ${TEST_FILTER:+-R "$TEST_FILTER"} >"$out/tests.log" 2>&1 || status=1
  tail -5 "$out/tests.log"
fi

ladder="$build/bench/ladder"

# compute-sanitizer over `ladder check` of every CUDA and openmp_target rung (its awkward
# cases, each checked against the reference): memcheck, racecheck (shared
# memory hazards) and synccheck must each report 0 errors. SANITIZE=0 skips.
if [ "${SANITIZE:-1}" != 0 ] && [ "${SANITIZE_ONE_DEVICE:-1}" != 0 ]; then
  : >"$out/sanitizer.log"
  while read -r exercise rungs; do
    # NCCL's set-up (cuda_nccl, on one rank here) probes kernels built for
    # other GPUs (cudaFuncGetAttributes, error 209, which NCCL handles):
    # there API errors are not reported, invalid accesses are. Every CUDA
    # call of the suite's own is checked by the rung, which fails on it.
    api=()
    [[ ",$rungs" == *",cuda_nccl"* ]] && api=(--report-api-errors no)
    for tool in memcheck racecheck synccheck; do
      echo "== $(date -u +%T) compute-sanitizer --tool $tool ${api[*]}: ladder check $exercise --variants $rungs" \
        >>"$out/sanitizer.log"
      # A step under the sanitizer takes many times as long: the hang limit is raised.
      compute-sanitizer --tool "$tool" "${api[@]}" --error-exitcode 9 "$ladder" check "$exercise" --variants "$rungs" \
        --hang-limit 600 >>"$out/sanitizer.log" 2>&1
      code=$?
      echo "== exit $code" >>"$out/sanitizer.log"
      [ "$code" = 0 ] || { status=1; echo "compute-sanitizer $tool: $exercise ($rungs) exit $code"; }
    done
  done < <("$ladder" list --json | python3 -c '
import json, sys
wanted = set(sys.argv[1:])
for entry in json.load(sys.stdin):
    rungs = [r["name"] for r in entry["rungs"] if r["backend"] in ("cuda", "openmp_target") and r["runs_here"]]
    if rungs and (not wanted or entry["exercise"] in wanted):
        print(entry["exercise"], ",".join(rungs))' "${exercises[@]}")
  grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitizer.log"
fi

"$ladder" devices >"$out/run.log" 2>&1
for size in ${SIZES-workshop large}; do
  for memory in pageable pinned; do
    flag=(); [ "$memory" = pinned ] && flag=(--pinned)
    echo "== ladder run --size $size ${flag[*]}" | tee -a "$out/run.log"
    "$ladder" run "${exercises[@]}" --size "$size" "${flag[@]}" --out "$out/results-$size-$memory.json" \
      >>"$out/run.log" 2>&1 || status=1
    # What participants would use instead (NumPy, CuPy), on the same inputs, into the same file.
    python3 reports/peers.py "$out/results-$size-$memory.json" --ladder "$ladder" >>"$out/run.log" 2>&1 || status=1
  done
done
# How the OpenMP rungs scale with threads (serial as the baseline).
threads=${THREADS-1,2,4,8,16}
if [ -n "$threads" ]; then
  sweep_size=${SWEEP_SIZE:-workshop}
  echo "== ladder run --size $sweep_size --variants serial,openmp --sweep threads=$threads" | tee -a "$out/run.log"
  "$ladder" run "${exercises[@]}" --size "$sweep_size" --variants serial,openmp --sweep "threads=$threads" \
    --out "$out/results-threads.json" >>"$out/run.log" 2>&1 || status=1
fi
# Many devices: where the build has MPI, the mpi and cuda_nccl rungs on one
# rank and on RANKS ranks (default: one per GPU, where there are two or
# more): checked, compute-sanitizer's memcheck over the cuda_nccl rungs, and
# timed beside the one-device rungs at each size.
gpus=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU" || true)
ranks=${RANKS-$([ "${gpus:-0}" -ge 2 ] && echo "$gpus")}
if [ -n "$ranks" ] && "$ladder" list | grep -E "^  mpi " >/dev/null; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
  : >"$out/ranks.log"
  distributed=$("$ladder" list --json | python3 -c '
import json, sys
wanted = set(sys.argv[1:])
for entry in json.load(sys.stdin):
    if any(r["name"] == "mpi" for r in entry["rungs"]) and (not wanted or entry["exercise"] in wanted):
        print(entry["exercise"])' "${exercises[@]}")
  sweep=${RANK_SWEEP-$(p=1; counts=1; while [ $((p * 2)) -le "$ranks" ]; do p=$((p * 2)); counts+=",$p"; done; echo "$counts")}
  for exercise in $distributed; do
    # rungs: the distributed ones and the one-device rungs to set beside them (RANK_BESIDE; cuda_streams:
    # median_filter's copies overlapped on one GPU); spread: the distributed ones (mpi, and cuda_nccl with its
    # kin); gpus_spread: those with a GPU a rank.
    read -r rungs spread gpus_spread < <("$ladder" list --json | python3 -c '
import json, sys
beside = sys.argv[2].split(",")
for entry in json.load(sys.stdin):
    if entry["exercise"] == sys.argv[1]:
        names = [r["name"] for r in entry["rungs"]]
        spread = [n for n in names if n == "mpi" or n.startswith("cuda_nccl")]
        print(",".join(n for n in names if n in beside or n in spread),
              ",".join(spread), ",".join(n for n in spread if n != "mpi") or "-")' "$exercise" \
      "${RANK_BESIDE:-serial,openmp,cuda,cuda_streams}")
    for n in ${RANK_COUNTS:-1 $ranks}; do
      echo "== $(date -u +%T) ladder check $exercise --variants $spread --ranks $n" >>"$out/ranks.log"
      timeout 300 "$ladder" check "$exercise" --variants "$spread" --ranks "$n" >>"$out/ranks.log" 2>&1 || status=1
    done
    if [ "${SANITIZE:-1}" != 0 ] && [ "$gpus_spread" != - ]; then
      echo "== $(date -u +%T) memcheck on $ranks ranks: ladder check $exercise --variants $gpus_spread" >>"$out/ranks.log"
      # NCCL's set-up probes kernels built for other GPUs (cudaFuncGetAttributes, error 209, handled by
      # NCCL): API errors are not reported, invalid accesses are.
      timeout 300 mpirun -np "$ranks" --oversubscribe compute-sanitizer --tool memcheck --report-api-errors no \
        --error-exitcode 9 \
        "$ladder" check "$exercise" --variants "$gpus_spread" --hang-limit 600 >>"$out/ranks.log" 2>&1
      echo "== exit $?" >>"$out/ranks.log"
    fi
    for size in ${RANK_SIZES-${SIZES-workshop large}}; do
      echo "== $(date -u +%T) ladder run $exercise --size $size --variants $rungs --ranks $ranks" >>"$out/ranks.log"
      timeout 500 "$ladder" run "$exercise" --size "$size" --variants "$rungs" --ranks "$ranks" \
        --out "$out/results-ranks-$exercise-$size.json" >>"$out/ranks.log" 2>&1 || status=1
    done
    if [ -n "$sweep" ] && [ "$gpus_spread" != - ]; then
      echo "== $(date -u +%T) ladder run $exercise --size large --variants $gpus_spread --sweep ranks=$sweep" \
        >>"$out/ranks.log"
      timeout 500 "$ladder" run "$exercise" --size large --variants "$gpus_spread" --sweep "ranks=$sweep" \
        --out "$out/results-sweep-$exercise.json" >>"$out/ranks.log" 2>&1 || status=1
    fi
  done
  # The participant's GPU step (histogram's cuda_nccl): the skeleton says what is left to write, and the
  # solution in its slot (the tests' participant copy) passes, on each rank count.
  copy="$build/tests/ladder_participant_copy"
  for n in ${RANK_COUNTS:-1 $ranks}; do
    echo "== $(date -u +%T) ladder check histogram --track exercises --variants cuda_nccl --ranks $n" >>"$out/ranks.log"
    timeout 300 "$ladder" check histogram --track exercises --variants cuda_nccl --ranks "$n" >>"$out/ranks.log" 2>&1
    if [ -x "$copy" ]; then
      echo "== $(date -u +%T) solved: ladder_participant_copy check histogram --track exercises --variants cuda_nccl --ranks $n" \
        >>"$out/ranks.log"
      timeout 300 "$copy" check histogram --track exercises --variants cuda_nccl --ranks "$n" >>"$out/ranks.log" 2>&1 ||
        status=1
    fi
  done
  # cuda_nccl named with more ranks than GPUs: refused before anything runs, exit 2.
  echo "== $(date -u +%T) ladder run histogram --variants cuda_nccl --ranks $((gpus + 1)) (refused: exit 2)" >>"$out/ranks.log"
  timeout 120 "$ladder" run histogram --size tiny --variants cuda_nccl --ranks $((gpus + 1)) \
    --out "$out/refused.json" >>"$out/ranks.log" 2>&1
  code=$?
  echo "== exit $code" >>"$out/ranks.log"
  [ "$code" = 2 ] || status=1
  grep -E "^== |^  (mpi|cuda_nccl[a-z_]*|cuda|cuda_streams|serial|openmp) |needs a GPU" "$out/ranks.log"
fi

cat "$out/run.log"
exit $status
