#!/usr/bin/env bash
# `ladder solve` on several ranks, each rank reading its own frames of the
# input file (receive_own_part), end to end on the CPU: median_filter's mpi
# rung with the one change of the rungs whose frames stay on each rank
# (mpi_test_only_own_frames, planted in tests/CMakeLists.txt) gives the
# serial rung's output on 2 and 3 ranks. Every rank opens the path rank 0
# read; /proc/self/cwd/ makes it each rank's own folder (mpirun --wdir), as a
# path on each machine's own disk would be: where a rank has no file there,
# rank 0 sends it its frames, the output is the same, and one note says
# so; where it has
# another file (another shape, or the same shape and other values), the job
# stops with one verdict line naming the rank, and writes no output.
#
#   test_solve_ranks.sh LADDER_WITH_PLANTED_MPI
set -uo pipefail
ladder=$(realpath "$1")  # absolute: the ranks below start in folders of their own
command -v mpirun >/dev/null || { echo "skipped: mpirun is not installed (Debian: openmpi-bin)"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
source "$(dirname "$0")/shell_test.sh"  # $work, $failures, expect
rung=mpi_test_only_own_frames
fail() { echo "FAILED: $1"; [ -n "${2:-}" ] && cat "$2"; failures=$((failures + 1)); }

# Stacks of 7 uint16 frames of 13 × 17 (and, in `longer`, 8): rank 0's, one of other values, one of another shape.
stack() {  # stack FOLDER FRAMES SEED
  "$ladder" generate median_filter --size tiny --param frames="$2" --param height=13 --param width=17 \
    --param dtype=uint16 --seed "$3" --out "$work/$1" >/dev/null || fail "ladder generate $1"
}
stack zero 7 1
stack other 7 2
stack longer 8 1
mkdir -p "$work/none"
solve() {  # solve VARIANT OUTPUT [LADDER OPTION...]
  local variant=$1 output=$2
  shift 2
  timeout 120 "$ladder" solve median_filter --variant "$variant" --param size=3 --output "$output" "$@"
}
solve serial "$work/serial.npy" --input image="$work/zero/image.npy" >"$work/serial.txt" 2>&1 ||
  fail "the serial rung's solve" "$work/serial.txt"

# Supervised (--ranks): every rank reads its frames of the same file.
for ranks in 2 3; do
  out="$work/ranks-$ranks.txt"
  if solve "$rung" "$work/ranks-$ranks.npy" --input image="$work/zero/image.npy" --ranks "$ranks" >"$out" 2>&1 &&
    cmp -s "$work/serial.npy" "$work/ranks-$ranks.npy"; then
    echo "ok: solve on $ranks ranks, each reading its own frames, gives the serial rung's output"
  else
    fail "solve on $ranks ranks did not give the serial rung's output" "$out"
  fi
done

# Under mpirun of one's own: rank 0 in zero/, rank 1 in FOLDER, each reading /proc/self/cwd/image.npy.
solve_beside() {  # solve_beside FOLDER: the output is $work/beside-FOLDER.npy, the job's words beside-FOLDER.txt
  rm -f "$work/beside-$1.npy"
  local args=(solve median_filter --variant "$rung" --param size=3 --output "$work/beside-$1.npy"
              --input image=/proc/self/cwd/image.npy)
  timeout 120 mpirun --oversubscribe --bind-to none -np 1 --wdir "$work/zero" "$ladder" "${args[@]}" \
    : -np 1 --wdir "$work/$1" "$ladder" "${args[@]}" >"$work/beside-$1.txt" 2>&1
}
solve_beside none
status=$?
if [ $status -eq 0 ] && cmp -s "$work/serial.npy" "$work/beside-none.npy" &&
  [ "$(grep -c "^ladder: note: rank 1 of 2 cannot open /proc/self/cwd/image.npy, so rank 0 sends" "$work/beside-none.txt")" -eq 1 ]; then
  echo "ok: a rank that finds no file at rank 0's path is sent its frames, the output is the same, and one note says so"
else
  fail "a rank without the file: exit $status, or not the serial rung's output" "$work/beside-none.txt"
fi
for folder in longer other; do
  solve_beside "$folder"
  status=$?
  out="$work/beside-$folder.txt"
  what=$([ "$folder" = longer ] && echo "reads it as uint16 \(8, 13, 17\)" || echo "reads other bytes")
  verdicts=$(grep -c "^ladder: FAIL" "$out")
  if [ $status -ne 0 ] && [ "$verdicts" -eq 1 ] && [ ! -e "$work/beside-$folder.npy" ] &&
    grep -Eq "^ladder: FAIL: median_filter's $rung rung .*: rank 1 of 2 opens /proc/self/cwd/image.npy and $what.*same file" "$out"; then
    echo "ok: a rank that opens another file ($folder) stops the job with one verdict naming it, and no output"
  else
    fail "a rank with another file ($folder): exit $status, $verdicts verdict line(s), or not /$what/" "$out"
  fi
done

[ $failures -eq 0 ] && echo "all passed" || echo "$failures FAILED"
[ $failures -eq 0 ]
