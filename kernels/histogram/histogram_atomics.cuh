#pragma once
// The GPU lesson's first histogram kernel: one thread per value, one
// atomicAdd on the global counts per value. Correct, and as slow as the
// number of threads that want the same counter: on `skewed` data, 90 % of
// all threads queue on counts[42] at the L2.
#include <cstddef>

__global__ void histogram_global_atomics(const unsigned char* __restrict__ values, std::size_t n,
                                         unsigned* __restrict__ counts) {
  const std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&counts[values[i]], 1u);
}
