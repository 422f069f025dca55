#pragma once
// c = a + b over n floats. Each thread moves 16 bytes per load and store
// (float4) in a grid-stride loop over a grid that just fills the GPU; the
// n % 4 leftover elements are done one by one. Needs 16-byte-aligned
// arrays (cudaMalloc gives 256).
#include <cstddef>

__global__ void vector_add(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                           std::size_t n) {
  const std::size_t first = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  const std::size_t quads = n / 4;
  const float4* a4 = reinterpret_cast<const float4*>(a);
  const float4* b4 = reinterpret_cast<const float4*>(b);
  float4* c4 = reinterpret_cast<float4*>(c);
  for (std::size_t i = first; i < quads; i += stride) {
    const float4 x = a4[i];
    const float4 y = b4[i];
    c4[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
  for (std::size_t i = 4 * quads + first; i < n; i += stride) c[i] = a[i] + b[i];
}
