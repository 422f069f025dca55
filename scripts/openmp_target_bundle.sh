#!/usr/bin/env bash
# The openmp_target rungs for a machine without clang (the GPU machines):
# build them here, where clang-16 is, and pack them with the OpenMP offload
# runtime they load into one tarball, to be carried there and named at
# configure time (scripts/gpu_check.sh does both):
#
#   scripts/openmp_target_bundle.sh [BUILD]      # writes BUILD/openmp-target-bundle.tar.xz
#   cmake ... -DLADDER_OPENMP_TARGET_BUNDLE=<the unpacked folder>
#   LD_LIBRARY_PATH=<the unpacked folder>/lib ladder ...
#
# BUILD (default build/release) is a configured build of this source tree
# with its openmp_target rungs on; they are built from the same sources as
# the ladder that links them there. The runtime (Debian's LLVM 16): libomp,
# libomptarget and its CUDA plugins, each also under its name without
# ".16" (libomptarget looks for the plugins by that name), and the plugins'
# libraries a GPU machine's Ubuntu lacks: libLLVM-16, libz3, libedit, libffi.
# About 34 MB compressed, inside what one device call carries.
set -euo pipefail
build=${1:-build/release}
llvm=${LLVM_LIB:-/usr/lib/llvm-16/lib}
system=/usr/lib/x86_64-linux-gnu

[ -f "$build/CMakeCache.txt" ] || { echo "no configured build at $build (cmake --preset release first)" >&2; exit 2; }
grep -q '^LADDER_OPENMP_TARGET_COMPILER:.*clang' "$build/CMakeCache.txt" ||
  { echo "$build has no clang++ for the openmp_target rungs (Debian: clang-16 libomp-16-dev clang-tools-16)" >&2; exit 2; }
[ -f "$llvm/libomptarget.so.16" ] || { echo "no libomptarget.so.16 in $llvm (Debian: libomp-16-dev; LLVM_LIB=...)" >&2; exit 2; }

# The GPU's libraries only: the host-device ones are the tests' (cmake/LadderOpenMpTarget.cmake).
targets=$(ninja -C "$build" -t targets all | sed -n 's/^\(ladder_[a-z_]*_openmp_target[a-z_]*\): phony$/\1/p' |
  grep -v '_host_device$')
[ -n "$targets" ] || { echo "$build builds no openmp_target rung" >&2; exit 2; }
# shellcheck disable=SC2086  # one target a word
cmake --build "$build" --target $targets

bundle=$(mktemp -d)
trap 'rm -rf "$bundle"' EXIT
mkdir "$bundle/lib"
cp "$build"/openmp_target/lib*.so "$bundle/"
for library in libomp.so.5 libomptarget.so.16 libomptarget.rtl.cuda.so.16 libomptarget.rtl.cuda.nextgen.so.16; do
  cp -L "$llvm/$library" "$bundle/lib/"
done
# libLLVM-16 lies in LLVM's folder on some installs of Debian's LLVM 16, in the system's on others.
for library in libLLVM-16.so.1 libz3.so.4 libedit.so.2 libffi.so.8; do
  if [ -e "$llvm/$library" ]; then cp -L "$llvm/$library" "$bundle/lib/"; else cp -L "$system/$library" "$bundle/lib/"; fi
done
for library in libomp.so libomptarget.so libomptarget.rtl.cuda.so libomptarget.rtl.cuda.nextgen.so; do
  ln -s "$(basename "$bundle"/lib/"$library".*)" "$bundle/lib/$library"
done
tar -C "$bundle" -cJf "$build/openmp-target-bundle.tar.xz" .
echo "$build/openmp-target-bundle.tar.xz: $(du -h "$build/openmp-target-bundle.tar.xz" | cut -f1), rungs:" \
  "$(cd "$bundle" && ls lib*.so | tr '\n' ' ')"
