#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages that hpc-ladder needs to build and
# test, by name, and only those that are missing (safe to run again).
# The CUDA toolkit is not among them: where nvcc is installed (NVIDIA's
# packages, /usr/local/cuda) the CUDA rungs are built, else they are skipped.
set -euo pipefail

packages=(
  build-essential cmake ninja-build git         # the build
  libbenchmark-dev nlohmann-json3-dev           # the harness: Google Benchmark, JSON
  libgtest-dev googletest                       # the tests
  ocl-icd-opencl-dev opencl-headers             # OpenCL through the ICD loader
  pocl-opencl-icd clinfo                        # an OpenCL platform on the CPU
  oclgrind                                      # a simulated OpenCL device that finds races (ladder check --race)
  openmpi-bin libopenmpi-dev                    # MPI for the distributed rungs (ladder run --ranks N)
  clang-16 libomp-16-dev clang-tools-16         # OpenMP target offload (the openmp_target rung): clang++, libomp, libomptarget
  llvm-16                                       # llc: the openmp_target rungs compiled for an AMD GPU too (a test)
  python3 python3-numpy python3-jsonschema      # NumPy and schema tests
  python3-venv python3-dev                      # the Python rungs' virtual environment (.venv); Cython's headers
  libcfitsio-dev                                # FITS input for `ladder solve` (optional)
  python3-matplotlib                            # ladder report: charts
  python3-scipy                                 # the SciPy peers and the solve tests against SciPy
  primesieve                                    # the primes exercise's peer (reports/peers.py)
  python3-opencv python3-astropy                # the fastest CPU library peers: OpenCV, astropy's sigma_clip
)

# Without root (a cluster account): nothing is installed. Say what is
# missing, what the build fetches instead (cmake/LadderDependencies.cmake),
# what is only left out, and stop only where the build itself cannot go on.
without_root() {
  local fetched=() left_out=() needed=()
  for package in "${missing[@]}"; do
    case $package in
      libbenchmark-dev | nlohmann-json3-dev | libgtest-dev | googletest) fetched+=("$package") ;;
      build-essential | cmake | ninja-build | git) ;;  # checked below by their commands
      *) left_out+=("$package") ;;
    esac
  done
  command -v c++ >/dev/null || needed+=("a C++ compiler (g++ 12 or later: a module, or Spack)")
  if ! command -v cmake >/dev/null || ! cmake --version | awk 'NR==1 {split($3, v, "."); exit !(v[1] > 3 || (v[1] == 3 && v[2] >= 25))}'; then
    needed+=("CMake 3.25 or later (pip install --user cmake)")
  fi
  command -v ninja >/dev/null || needed+=("Ninja (pip install --user ninja)")
  echo "bootstrap: installing nothing (not root, and no sudo without a password; or no apt-get)."
  [ ${#fetched[@]} -eq 0 ] ||
    echo "bootstrap: the build fetches and builds instead: ${fetched[*]} (offline: docs/usage.md, 'On a cluster')"
  [ ${#left_out[@]} -eq 0 ] ||
    echo "bootstrap: left out where not found otherwise (their rungs and peers are skipped, saying why): ${left_out[*]}"
  if [ ${#needed[@]} -gt 0 ]; then
    printf 'bootstrap: the build needs, and this machine lacks: %s\n' "${needed[@]}" >&2
    return 1
  fi
  echo "bootstrap: a compiler, CMake and Ninja are here: the build can go on"
}

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "bootstrap: all ${#packages[@]} packages are installed"
elif ! command -v apt-get >/dev/null; then
  echo "bootstrap: not a Debian/Ubuntu system (no apt-get): the equivalents of these are missing: ${missing[*]}"
  without_root || exit 1
elif [ "$(id -u)" -ne 0 ] && ! { command -v sudo >/dev/null && sudo -n true 2>/dev/null; }; then
  without_root || exit 1
else
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  echo "bootstrap: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
  if [ "$("$(dirname "$0")/cuda_option.sh")" != OFF ]; then
    echo "bootstrap: CUDA toolkit found: the CUDA rungs will be built"
  else
    echo "bootstrap: CUDA toolkit found, but no NVIDIA GPU: the CUDA rungs are left out of the build (LADDER_CUDA=ON to build them)"
  fi
else
  echo "bootstrap: no CUDA toolkit (nvcc): the CUDA rungs will be skipped (install it from NVIDIA to build them)"
fi

# The Python rungs' packages (Numba, Cython, PyOpenCL; CuPy and numba-cuda
# where a GPU is), pinned, from PyPI into a virtual environment: .venv, or
# the one LADDER_VENV names. No root needed. Done again only when a
# requirements file changed; offline, the Python rungs are skipped, saying why.
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${LADDER_VENV:-$root/.venv}
requirements=$root/bench/python/requirements.txt
if command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q GPU; then
  requirements=$root/bench/python/requirements-cuda.txt
fi
stamp=$venv/.ladder-requirements
wanted=$(cat "$root"/bench/python/requirements*.txt "$requirements" | sha256sum | cut -c1-16)
if [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ]; then
  echo "bootstrap: the Python rungs' packages are installed in $venv"
elif { [ -x "$venv/bin/python3" ] || python3 -m venv "$venv"; } &&
  (cd "$(dirname "$requirements")" && "$venv/bin/python3" -m pip install -q --disable-pip-version-check -r "$requirements"); then
  echo "$wanted" >"$stamp"
  echo "bootstrap: the Python rungs' packages installed in $venv ($(basename "$requirements"))"
else
  echo "bootstrap: could not install the Python rungs' packages into $venv (offline? no python3-venv?):" \
    "the Python rungs will be skipped, each saying what it lacks"
fi
