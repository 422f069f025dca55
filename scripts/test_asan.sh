#!/usr/bin/env bash
# The sanitizer build (AddressSanitizer and UndefinedBehaviorSanitizer,
# host and OpenCL rungs, no CUDA), and the tests that guard bad input under
# it: the .npy reader and its random-header test, the harness, the CLI
# (every refusal, the all-or-nothing outputs), arrays, the random inputs,
# and the median filter's networks. The whole suite under the sanitizers
# (`ctest --preset debug-asan`) takes too long for CI on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset debug-asan >/dev/null
cmake --build --preset debug-asan --target ladder_tests ladder ladder_exercises
ctest --preset debug-asan -R "${ASAN_TESTS:-Npy|Harness|Cli|Array|Random|MedianFilterNetwork}"
