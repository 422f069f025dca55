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
  python3 python3-numpy python3-jsonschema      # NumPy and schema tests
  libcfitsio-dev                                # FITS input for `ladder solve` (optional)
  python3-matplotlib                            # ladder report: charts
  python3-scipy                                 # the SciPy peers and the solve tests against SciPy
  primesieve                                    # the primes exercise's peer (reports/peers.py)
  python3-opencv python3-astropy                # the fastest CPU library peers: OpenCV, astropy's sigma_clip
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "bootstrap: all ${#packages[@]} packages are installed"
else
  if ! command -v apt-get >/dev/null; then
    echo "bootstrap: cannot install: this is not a Debian/Ubuntu system (no apt-get)." >&2
    echo "bootstrap: install the equivalents of: ${missing[*]}" >&2
    exit 1
  fi
  if [ "$(id -u)" -eq 0 ]; then
    sudo=()
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo=(sudo)
  else
    echo "bootstrap: cannot install: not root and sudo is not available without a password." >&2
    echo "bootstrap: as root, run: apt-get install ${missing[*]}" >&2
    exit 1
  fi
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
