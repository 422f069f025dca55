#!/usr/bin/env bash
# The participant track's checker, both ways (issue 9), and its layering:
#  0. nothing in exercises/ includes a file from solutions/, and every
#     skeleton kernel has the name of a solution kernel;
#  1. every skeleton in exercises/ builds into `ladder`, its naive rung
#     passes and its TODO rungs report "not implemented", never pass/fail;
#     an mpi skeleton does so on 2 and 3 ranks too, with exit status 0;
#     the track is a library beside `ladder`: without it, or older than
#     the program, its C++ rungs are skipped with the build command;
#  2. in a participant's copy of vector_add, with the solution's serial.cpp,
#     OpenCL host program and kernel (and openmp_target rung, where the
#     build has it) put in the slots, those rungs pass;
#     with an off-by-one in the openmp loop bounds, the check fails and
#     names the first wrong element; each mpi slot (one for each mpi
#     skeleton), solved, passes on 2 and 3 ranks. The copy is built with
#     the tests (tests/CMakeLists.txt: ladder_participant_copy); its kernel
#     is read at run time, so this script puts it in place.
#
#   test_exercises_track.sh SOURCE_DIR LADDER skeletons
#   test_exercises_track.sh SOURCE_DIR LADDER copy LADDER_PARTICIPANT_COPY
set -uo pipefail
source_dir=$1 ladder=$2 part=$3 participant_copy=${4:-}
source "$(dirname "$0")/shell_test.sh"  # $work, $failures, expect
refuse() {  # refuse DESCRIPTION PATTERN FILE
  if grep -Eq -- "$2" "$3"; then echo "FAILED: $1 (/$2/ in:)"; cat "$3"; failures=$((failures + 1)); else echo "ok: $1"; fi
}

if [ "$part" != copy ]; then
# 0. The participant's track never reaches into the answers: what both
#    tracks build lives in given/.
if grep -rn '#include "solutions/' "$source_dir/exercises" >"$work/reaches.txt"; then
  echo "FAILED: exercises/ includes from solutions/:"; cat "$work/reaches.txt"; failures=$((failures + 1))
else
  echo "ok: nothing in exercises/ includes from solutions/"
fi

# The skeleton kernels carry the solution's file names, so that the
# participant can compare a kernel with the solution's of the same name.
for kernel in "$source_dir"/exercises/*/kernels/*; do
  exercise=$(basename "$(dirname "$(dirname "$kernel")")")
  if [ -f "$source_dir/kernels/$exercise/$(basename "$kernel")" ]; then
    echo "ok: $exercise/kernels/$(basename "$kernel") has a solution of that name"
  else
    echo "FAILED: exercises/$exercise/kernels/$(basename "$kernel") has no kernels/$exercise/$(basename "$kernel")"
    failures=$((failures + 1))
  fi
done

# 1. The skeletons as shipped.
for folder in "$source_dir"/exercises/*/; do
  exercise=$(basename "$folder")
  "$ladder" check "$exercise" --track exercises --size tiny >"$work/$exercise.txt" 2>&1
  status=$?
  expect "$exercise: the given naive rung passes" "^  naive +pass" "$work/$exercise.txt"
  expect "$exercise: and is not timed again (the solutions' own file)" "^  naive +pass .*; given, the solutions' own file" \
    "$work/$exercise.txt"
  refuse "$exercise: no skeleton rung fails" "FAIL" "$work/$exercise.txt"
  [ $status = 0 ] || { echo "FAILED: $exercise: exit status $status"; failures=$((failures + 1)); }
  for rung in $(grep -l LADDER_TODO "$folder"/*.cpp "$folder"/*.cu 2>/dev/null | xargs -rn1 basename | sed 's/\.[a-z]*$//'); do
    # A CUDA rung cannot run without a GPU: skipped is right there too. A build without CUDA does not
    # register the rungs past `cuda` (cuda_nccl) at all: absent there, where cuda itself is skipped.
    if [[ $rung == cuda_* ]] && ! grep -Eq "^  $rung " "$work/$exercise.txt" && grep -Eq "^  cuda +skipped" "$work/$exercise.txt"; then
      echo "ok: $exercise: $rung is not in this build (no CUDA), as cuda is skipped"; continue
    fi
    expect "$exercise: $rung reports itself as not implemented" "^  $rung +(not implemented|skipped)" "$work/$exercise.txt"
  done
  # The OpenCL kernel stubs are read at run time: a stub still marked TODO leaves opencl not implemented.
  if grep -q LADDER_TODO "$folder"/kernels/*.cl 2>/dev/null; then
    expect "$exercise: opencl (kernel stub) reports itself as not implemented" "^  opencl +(not implemented|skipped)" \
      "$work/$exercise.txt"
    # (vector_add's participant writes the host program too: its TODO comes first.)
    if grep -Eq "^  opencl +not implemented" "$work/$exercise.txt"; then
      expect "$exercise: the stub's message names the file to edit" \
        "^  opencl +not implemented \(.*exercises/$exercise/(kernels/[a-z_]+\.cl still has its LADDER_TODO line|opencl\.cpp)" \
        "$work/$exercise.txt"
    fi
  fi
done

# The track is a library beside `ladder` (bench/libladder_exercises.so),
# loaded when it starts. A `ladder` without it beside it, or with one older
# than itself (built against another harness), skips the track's C++ rungs
# and says how to build it; its Python rungs are the program's own.
library=$(dirname "$ladder")/libladder_exercises.so
mkdir -p "$work/lone/bench"
cp "$ladder" "$work/lone/bench/ladder"
"$work/lone/bench/ladder" check vector_add --track exercises --size tiny >"$work/lone.txt" 2>&1
expect "without the track's library, its C++ rungs are skipped, saying how to build it" \
  "^  serial +skipped \(the exercises track is not built \(.*libladder_exercises.so is not there\): build it with cmake --build" \
  "$work/lone.txt"
expect "and its Python rungs still run" "^  python_numba_vectorize +(not implemented|skipped \(.*(NumPy|Numba))" "$work/lone.txt"
cp "$library" "$work/lone/bench/"
touch -d "1 hour ago" "$work/lone/bench/libladder_exercises.so"
"$work/lone/bench/ladder" check vector_add --track exercises --size tiny >"$work/stale.txt" 2>&1
expect "a track library older than ladder is not loaded, and that is said" \
  "^  serial +skipped \(the exercises track's library .* is older than \`ladder\`" "$work/stale.txt"
touch "$work/lone/bench/libladder_exercises.so"
"$work/lone/bench/ladder" check vector_add --track exercises --size tiny >"$work/loaded.txt" 2>&1
expect "beside it and newer, it is loaded: its skeletons report their TODOs" "^  serial +not implemented" \
  "$work/loaded.txt"

# An mpi skeleton on several ranks (issue 47): every rank stops at the
# LADDER_TODO, and they agree, so that rank 0 reports "not implemented" and
# the check exits as for any such rung, with no rank aborting the job. A
# timeout stands for a hang.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # Open MPI's consent where the tests run as root
for skeleton in "$source_dir"/exercises/*/mpi.cpp; do
  [ -f "$skeleton" ] || continue
  exercise=$(basename "$(dirname "$skeleton")")
  if ! command -v mpirun >/dev/null || grep -Eq "^  mpi +skipped" "$work/$exercise.txt"; then
    echo "skipped: $exercise mpi on several ranks (no mpirun, or built without MPI)"; continue
  fi
  for ranks in 2 3; do
    # On 2 ranks the participant's whole command; on 3 (uneven bands) the mpi rung alone.
    variants=$([ $ranks = 3 ] && echo "--variants mpi")
    timeout 120 "$ladder" check "$exercise" --track exercises --size tiny --ranks $ranks $variants \
      >"$work/$exercise-ranks.txt" 2>&1
    status=$?
    expect "$exercise: mpi on $ranks ranks reports itself as not implemented, naming the file" \
      "^  mpi +not implemented \(mpi: .* of exercises/$exercise/mpi\.cpp, then delete this line\)" \
      "$work/$exercise-ranks.txt"
    refuse "$exercise: on $ranks ranks no rank stops the job" "MPI_Abort|stopping every rank" "$work/$exercise-ranks.txt"
    [ $status = 0 ] || { echo "FAILED: $exercise --ranks $ranks: exit status $status (124: it hung)"; cat "$work/$exercise-ranks.txt"; failures=$((failures + 1)); }
  done
done

fi

if [ "$part" != skeletons ]; then
# 2. A participant's copy of vector_add: serial solved, openmp off by one,
#    the OpenCL host program and kernel solved. Run from $work, so that
#    the kernel's file is named as the participant's would be.
mkdir -p "$work/kernels/vector_add"
cp "$source_dir/kernels/vector_add/vector_add.cl" "$work/kernels/vector_add/vector_add.cl"
cd "$work" || exit 1
export LADDER_KERNEL_DIR=kernels
"$participant_copy" check vector_add --track exercises --size tiny >"$work/copy.txt" 2>&1
status=$?
expect "the solution's serial.cpp in the slot passes, with its time beside the solution's" \
  "^  serial +pass .*tiny: .* \(solution: " "$work/copy.txt"
expect "an off-by-one in openmp's loop fails, naming the first wrong element" \
  "^  openmp +FAIL .*index [0-9]+: expected .*, got " "$work/copy.txt"
expect "the failure names the case's seed, the mistake it catches and the run that shows it again" \
  "FAIL case n=[0-9]+ seed=[0-9]+ \\(catches: [^)]+\\): .*\\(again: ladder run vector_add --variants openmp --track exercises --param n=[0-9]+ --seed [0-9]+\\)" \
  "$work/copy.txt"
if grep -q "^  openmp_target " "$work/copy.txt"; then
  expect "the solution's openmp_target rung in the slot passes" "^  openmp_target +pass" "$work/copy.txt"
fi
if grep -q "^  opencl .*skipped" "$work/copy.txt"; then
  echo "skipped: no OpenCL device for the edited kernel"
else
  expect "the solution's host program and kernel in the slots pass" "^  opencl +pass" "$work/copy.txt"
  # A kernel that does not compile (read at run time: no rebuild) fails with the compiler's log.
  sed 's/a\[i\] + b\[i\]/a[i] + b[i] +/' "$source_dir/kernels/vector_add/vector_add.cl" >"$work/kernels/vector_add/vector_add.cl"
  "$participant_copy" check vector_add --track exercises --size tiny --variants opencl >"$work/typo.txt" 2>&1
  expect "a kernel that does not compile fails with the build's error and log" \
    "^  opencl +FAIL .*OpenCL build of kernels/vector_add/vector_add.cl failed \(CL_BUILD_PROGRAM_FAILURE\)" \
    "$work/typo.txt"
  expect "the log holds the compiler's message" "error" "$work/typo.txt"
fi
[ $status = 1 ] || { echo "FAILED: a failing rung must make check exit 1, got $status"; failures=$((failures + 1)); }

# The copy's mpi slots, one for each mpi skeleton, hold the solutions
# (tests/CMakeLists.txt): each passes on 2 ranks, and on 3 (uneven parts).
if ! command -v mpirun >/dev/null; then
  echo "skipped: the solved mpi rungs on 2 and 3 ranks (no mpirun)"
else
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  for skeleton in "$source_dir"/exercises/*/mpi.cpp; do
    [ -f "$skeleton" ] || continue
    exercise=$(basename "$(dirname "$skeleton")")
    for ranks in 2 3; do
      timeout 120 "$participant_copy" check "$exercise" --track exercises --size tiny --variants mpi --ranks $ranks \
        >"$work/mpi.txt" 2>&1
      status=$?
      if grep -Eq "^  mpi +skipped" "$work/mpi.txt"; then
        echo "skipped: $exercise's solved mpi rung (built without MPI)"; continue
      fi
      expect "$exercise: the solution's mpi.cpp in the slot passes on $ranks ranks" "^  mpi +pass" "$work/mpi.txt"
      if [ $status != 0 ]; then
        echo "FAILED: $exercise's solved mpi rung on $ranks ranks: exit status $status"; cat "$work/mpi.txt"
        failures=$((failures + 1))
      fi
    done
  done
fi
fi

echo "$failures failure(s)"
[ $failures = 0 ]
