#pragma once
// What the kappa-sigma kernels share: the loop's state, the digits of the
// radix select, and the float keys (kappa_sigma.cuh, kappa_sigma_persistent.cuh).
#include <math_constants.h>

#include <cstdint>

constexpr int kClipBuckets = 2048;  // 11-bit digits (the last digit has 10 bits and uses half)
constexpr int kClipThreads = 256;   // threads per block, for every kernel but clip_start

// The loop's state, on the device (the host reads `done`).
struct ClipState {
  double lower, upper;            // the kept values: lower < x < upper
  double pass_lower, pass_upper;  // the last pass's bounds
  double median, mean, std;       // the last pass's statistics
  double shift;                   // the sums are of x - shift (the last median)
  unsigned count;                 // values kept when the iteration began
  unsigned iterations;            // passes that computed bounds
  unsigned done;                  // 1: the last pass removed nothing, or everything
  unsigned unused;
  unsigned prefix[2];  // the key bits found so far of the middle values
  unsigned rank[2];    // their ranks among the values sharing those bits
};

// Unsigned keys in the order of the floats: flip the sign bit of positives,
// every bit of negatives.
__device__ __forceinline__ unsigned float_key(float x) {
  const unsigned bits = __float_as_uint(x);
  return bits ^ ((bits >> 31) ? 0xFFFFFFFFu : 0x80000000u);
}
__device__ __forceinline__ float key_float(unsigned key) {
  return __uint_as_float(key ^ ((key >> 31) ? 0x80000000u : 0xFFFFFFFFu));
}
