#pragma once
// batched_matmul's CUDA kernels (the cuda rung), two ideas for two kinds of
// shape. The rung picks by the size of c[q] (m p), see cuda.cu.
//
//  - batched_matmul_elements: one thread per element of c, the whole batch
//    in one grid (as the OpenCL kernel). For the slides' 2 × 4 by 4 × 5 a
//    pair has only 10 outputs: too little for a block of its own, and the
//    loads of neighbouring threads fall in the same cache lines.
//  - batched_matmul_tiles: one block per pair. The block loads a[q] and
//    b[q] into shared memory once (coalesced), then its threads compute the
//    m p outputs from there: each element of a and b is read from global
//    memory once instead of p and m times.
#include <cstddef>

constexpr int kMatmulThreads = 256;

// c[e] for e = (q m + i) p + j < elements. Indices fit in 32 bits: the
// problem refuses arrays of 2^31 elements or more.
__global__ void __launch_bounds__(kMatmulThreads)
    batched_matmul_elements(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                            unsigned m, unsigned n, unsigned p, unsigned elements) {
  const unsigned e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= elements) return;
  const unsigned j = e % p, i = (e / p) % m, q = e / (m * p);
  const float* row = a + (q * m + i) * n;   // row i of a[q]
  const float* column = b + q * n * p + j;  // column j of b[q], p apart
  float sum = 0;
  for (unsigned k = 0; k < n; ++k) sum += row[k] * column[k * p];
  c[e] = sum;
}

// Block q: c[q] = a[q] @ b[q] with both in shared memory (dynamic: m n + n p
// floats, at most 32 KiB for 64 × 64 by 64 × 64).
__global__ void __launch_bounds__(kMatmulThreads)
    batched_matmul_tiles(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                         unsigned m, unsigned n, unsigned p) {
  extern __shared__ float shared[];
  float* a_q = shared;          // [m][n]
  float* b_q = shared + m * n;  // [n][p]
  const unsigned q = blockIdx.x;
  for (unsigned e = threadIdx.x; e < m * n; e += blockDim.x) a_q[e] = a[q * m * n + e];
  for (unsigned e = threadIdx.x; e < n * p; e += blockDim.x) b_q[e] = b[q * n * p + e];
  __syncthreads();  // both matrices in before anyone multiplies
  // Neighbouring threads take neighbouring j: one a_q value for the warp
  // (a broadcast), consecutive b_q values (different banks).
  for (unsigned e = threadIdx.x; e < m * p; e += blockDim.x) {
    const unsigned i = e / p, j = e % p;
    float sum = 0;
    for (unsigned k = 0; k < n; ++k) sum += a_q[i * n + k] * b_q[k * p + j];
    c[q * m * p + e] = sum;
  }
}
