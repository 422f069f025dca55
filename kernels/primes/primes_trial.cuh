#pragma once
// The GPU lesson's answer: one thread per number k, trial division by
// 2, 3, ... up to sqrt(k), stopping at the first divisor. A warp takes as long
// as its slowest thread, and among 32 consecutive numbers there is nearly
// always a prime that divides all the way to sqrt(k).
#include <cstdint>

__global__ void primes_trial(std::uint32_t n, unsigned char* __restrict__ flags) {
  const std::uint64_t index = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (index >= n) return;
  const auto k = static_cast<std::uint32_t>(index);
  unsigned char prime = k >= 2;  // 0 and 1 are not prime
  // d * d in 64 bits: for k near 2^32, d reaches 65536 and d * d would wrap.
  for (std::uint32_t d = 2; std::uint64_t{d} * d <= k; ++d) {
    if (k % d == 0) {
      prime = 0;
      break;
    }
  }
  flags[k] = prime;
}
