#pragma once
// batched_matmul's CUDA kernels (the cuda rung), two ideas for two kinds of
// shape. The rung picks by the size of c[q] (m p), see cuda.cu.
//
//  - batched_matmul_elements: one thread per element of c, the whole batch
//    in one grid (as the OpenCL kernel). For the slides' 2 × 4 by 4 × 5 a
//    pair has only 10 outputs: too little for a block of its own, and the
//    loads of neighbouring threads fall in the same cache lines.
//  - batched_matmul_register_tiles: a block of 256 threads takes as many
//    whole pairs as it has threads for (16 pairs of 16 × 16, one of
//    64 × 64). It loads them into shared memory once (coalesced: each
//    element of a and b is read from global memory once instead of p and m
//    times), and each thread computes a 4 × 4 tile of one c[q] in
//    registers: per k it reads four values of a and four of b (one 16-byte
//    read) from shared memory and does 16 multiply-adds with them.
//    Before: a block per pair, with a thread per output below 32 × 32
//    (two shared-memory reads per multiply-add: 152.9 µs at 2^16 × 16³)
//    and the 4 × 4 tiles from 32 × 32 on, where a's rows, n apart, fell in
//    one bank (200.3 µs at 4096 × 64³); cuBLAS 175.4 and 103.2 µs.
#include <cuda_pipeline_primitives.h>

#include <cstddef>

constexpr int kMatmulThreads = 256;

// c[e] for e = (q m + i) p + j < elements. Indices fit in 32 bits: the
// problem refuses arrays of 2^31 elements or more.
__global__ void __launch_bounds__(kMatmulThreads)
    batched_matmul_elements(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                            unsigned m, unsigned n, unsigned p, unsigned elements) {
  const unsigned e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= elements) return;
  // Two divisions, not three ((e / p) % m would be one more): on the slides'
  // shapes the index arithmetic costs about as much issue time as the loads.
  const unsigned q = e / (m * p), in_pair = e - q * m * p;
  const unsigned i = in_pair / p, j = in_pair - i * p;
  const float* row = a + (q * m + i) * n;   // row i of a[q]
  const float* column = b + q * n * p + j;  // column j of b[q], p apart
  float sum = 0;
  for (unsigned k = 0; k < n; ++k) sum += row[k] * column[k * p];
  c[e] = sum;
}

// A block of 256 threads takes `pairs` consecutive pairs (at most 256 / T
// of them, T = ceil(m / 4) ceil(p / 4) threads a pair, and no more than fit
// in 48 KiB of shared memory). Thread t computes the 4 × 4 tile of c[q] at
// rows 4 ti.., columns 4 tj.. of the block's pair t / T.
//  - The block's a rows sit in shared memory n + 1 floats apart. Rows n
//    apart would put row 4 ti of every thread of a warp in one bank when n
//    is a multiple of 32 (their reads then take turns); n + 1 apart they
//    fall in different banks.
//  - b's rows sit p4 apart, p rounded up to a multiple of 4 and padded with
//    zeros, so that a thread's four b values are one float4.
//  - Rows past m read row m - 1 and are not stored.
constexpr int kTile = 4;
constexpr unsigned kMatmulSharedFloats = 48 * 1024 / sizeof(float);  // without opting in to more

struct MatmulPacking {
  unsigned pairs;  // per block
  unsigned b_at;   // where b's rows start in shared memory: 16-byte aligned
  unsigned shared_floats;
};

__host__ __device__ inline unsigned round_up_to_tile(unsigned x) { return (x + kTile - 1) / kTile * kTile; }

__host__ __device__ inline MatmulPacking matmul_packing(unsigned m, unsigned n, unsigned p) {
  const unsigned threads_per_pair = round_up_to_tile(m) / kTile * (round_up_to_tile(p) / kTile);
  const unsigned floats_per_pair = m * (n + 1) + n * round_up_to_tile(p) + kTile;  // kTile: the alignment
  unsigned pairs = kMatmulThreads / threads_per_pair;
  if (pairs * floats_per_pair > kMatmulSharedFloats) pairs = kMatmulSharedFloats / floats_per_pair;
  if (pairs == 0) pairs = 1;  // one pair of 64 × 64 by 64 × 64 takes 33 KiB
  const unsigned b_at = round_up_to_tile(pairs * m * (n + 1));
  return {pairs, b_at, b_at + pairs * n * round_up_to_tile(p)};
}

__global__ void __launch_bounds__(kMatmulThreads)
    batched_matmul_register_tiles(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                  unsigned batch, unsigned m, unsigned n, unsigned p, MatmulPacking packing) {
  extern __shared__ float4 shared4[];  // 16-byte aligned
  float* const a_s = reinterpret_cast<float*>(shared4);  // [pairs m][n + 1]
  float* const b_s = a_s + packing.b_at;                 // [pairs n][p4]
  const unsigned p4 = round_up_to_tile(p);
  const unsigned first = blockIdx.x * packing.pairs;
  const unsigned pairs = min(packing.pairs, batch - first);

  // The block's pairs are contiguous in a and in b: one coalesced sweep over
  // each. The copies go straight from global to shared memory (cp.async,
  // sm_80 on; a plain load and store before), all of a thread's copies in
  // flight at once: a load into a register and a store would wait for each
  // element in turn. Element (row, k) moves on by the block's size each
  // time, so the loops need no division.
  const float* a_first = a + std::size_t{first} * m * n;
  for (unsigned row = threadIdx.x / n, k = threadIdx.x % n; row < pairs * m;) {
    __pipeline_memcpy_async(a_s + row * (n + 1) + k, a_first + row * n + k, sizeof(float));
    row += kMatmulThreads / n, k += kMatmulThreads % n;
    if (k >= n) k -= n, ++row;
  }
  const float* b_first = b + std::size_t{first} * n * p;
  for (unsigned row = threadIdx.x / p4, j = threadIdx.x % p4; row < pairs * n;) {
    const bool inside = j < p;  // the padding columns are filled with zeros, read from nowhere
    __pipeline_memcpy_async(b_s + row * p4 + j, b_first + (inside ? row * p + j : 0), sizeof(float),
                            inside ? 0 : sizeof(float));
    row += kMatmulThreads / p4, j += kMatmulThreads % p4;
    if (j >= p4) j -= p4, ++row;
  }
  __pipeline_commit();
  __pipeline_wait_prior(0);  // this thread's copies have landed
  __syncthreads();  // every pair in before anyone multiplies

  const unsigned tiles_across = p4 / kTile, threads_per_pair = round_up_to_tile(m) / kTile * tiles_across;
  const unsigned g = threadIdx.x / threads_per_pair, t = threadIdx.x % threads_per_pair;
  if (g >= pairs) return;  // no barrier follows
  const unsigned i0 = kTile * (t / tiles_across), j0 = kTile * (t % tiles_across);
  const float* rows[kTile];
#pragma unroll
  for (int r = 0; r < kTile; ++r) rows[r] = a_s + (g * m + min(i0 + r, m - 1)) * (n + 1);
  const float* b_q = b_s + g * n * p4 + j0;
  float sum[kTile][kTile] = {};
  for (unsigned k = 0; k < n; ++k) {
    const float4 row = *reinterpret_cast<const float4*>(b_q + k * p4);  // b[k][j0..j0+3]
    const float bs[kTile] = {row.x, row.y, row.z, row.w};
#pragma unroll
    for (int r = 0; r < kTile; ++r) {
      const float a_rk = rows[r][k];
#pragma unroll
      for (int u = 0; u < kTile; ++u) sum[r][u] += a_rk * bs[u];
    }
  }
  float* c_q = c + (std::size_t{first} + g) * m * p;
#pragma unroll
  for (int r = 0; r < kTile; ++r) {
    if (i0 + r >= m) break;
    float* c_row = c_q + (i0 + r) * p + j0;
    if (p % kTile == 0) {  // the row of the tile is one aligned float4
      *reinterpret_cast<float4*>(c_row) = make_float4(sum[r][0], sum[r][1], sum[r][2], sum[r][3]);
    } else {
#pragma unroll
      for (int u = 0; u < kTile; ++u)
        if (j0 + u < p) c_row[u] = sum[r][u];
    }
  }
}
