#!/usr/bin/env bash
# The build with CMake's default generator (Unix Makefiles; Spack's CMake
# builds use it too), not only the presets' Ninja: the project configured
# with it in a folder of its own, and vector_add's openmp_target rung built
# by clang++ for the GPU and for the host as a device. The custom commands'
# output folders are made by the commands themselves: Ninja makes them,
# Make does not (issue 71's "error opening ...so.d").
#
#   test_unix_makefiles.sh SOURCE_DIR
set -uo pipefail
source_dir=$(realpath "$1")
command -v make >/dev/null || { echo "skipped: make is not installed"; exit 77; }
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
rung=ladder_solutions_vector_add_openmp_target
cmake -S "$source_dir" -B "$build" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=Release -DLADDER_CUDA=OFF \
  >"$build/configure.log" 2>&1 || { cat "$build/configure.log"; echo "FAIL: configure with Unix Makefiles"; exit 1; }
grep -q "^CMAKE_GENERATOR:INTERNAL=Unix Makefiles" "$build/CMakeCache.txt" ||
  { echo "FAIL: the build folder is not a Unix Makefiles one"; exit 1; }
status=0
for target in "$rung" "${rung}_host_device"; do
  if ! cmake --build "$build" --target "$target" >"$build/build.log" 2>&1; then
    tail -20 "$build/build.log"
    echo "FAIL: make $target"
    status=1
  fi
done
for library in "$build/openmp_target/lib$rung.so" "$build/openmp_target/host_device/lib$rung.so"; do
  [ -s "$library" ] && [ -s "$library.d" ] || { echo "FAIL: no ${library#"$build"/} (or its depfile)"; status=1; }
done
[ $status = 0 ] && echo "PASS: vector_add's openmp_target rung built with Unix Makefiles, for the GPU and the host"
exit $status
