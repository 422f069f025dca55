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
//  - batched_matmul_register_tiles: the same block per pair, and each
//    thread computes a 4 × 4 tile of c in registers. Per k it reads four
//    values of a and four of b from shared memory (four broadcasts and one
//    16-byte read) and does 16 multiply-adds with them, where the kernel
//    above reads two values for each multiply-add. On the H100 at 64³:
//    200 µs against 303 (cuBLAS 103). Measured and not kept: rows 16
//    apart with a read as float4 along k, 7 % faster at 64³ but 39 %
//    slower at 32³, where half of each thread's rows fall past m.

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

// A pair per block of 256 threads, each thread the 4 × 4 tile of c at rows
// 4 ti.., columns 4 tj.. (ti, tj < 16: up to 64 × 64). b[q] is padded with
// zero columns to p4, a multiple of 4, so that a thread's four b values are
// one float4; its four a values are four reads that the warp's threads
// share (two rows a warp: broadcasts). Rows past m read row m - 1 and are
// not stored. Dynamic shared memory: m n + n p4 floats (at most 32 KiB).
constexpr int kTile = 4;
constexpr int kTilesAcross = 16;  // 16 × 16 threads × 4 × 4 outputs = 64 × 64

__global__ void __launch_bounds__(kMatmulThreads)
    batched_matmul_register_tiles(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                  unsigned m, unsigned n, unsigned p) {
  extern __shared__ float4 shared4[];  // 16-byte aligned
  float* shared = reinterpret_cast<float*>(shared4);
  const unsigned p4 = (p + kTile - 1) / kTile * kTile;
  const unsigned b_at = (m * n + kTile - 1) / kTile * kTile;  // b_q starts 16-byte aligned
  float* a_q = shared;         // [m][n]
  float* b_q = shared + b_at;  // [n][p4], zero columns past p
  const unsigned q = blockIdx.x;
  for (unsigned e = threadIdx.x; e < m * n; e += blockDim.x) a_q[e] = a[q * m * n + e];
  for (unsigned e = threadIdx.x; e < n * p4; e += blockDim.x) {
    const unsigned k = e / p4, j = e % p4;
    b_q[e] = j < p ? b[(q * n + k) * p + j] : 0.0f;
  }
  __syncthreads();  // both matrices in before anyone multiplies

  const unsigned ti = threadIdx.x / kTilesAcross, tj = threadIdx.x % kTilesAcross;
  const unsigned i0 = kTile * ti, j0 = kTile * tj;
  if (i0 >= m || j0 >= p) return;  // no barrier follows
  const float* rows[kTile];
#pragma unroll
  for (int r = 0; r < kTile; ++r) rows[r] = a_q + min(i0 + r, m - 1) * n;
  float sum[kTile][kTile] = {};
  for (unsigned k = 0; k < n; ++k) {
    const float4 row = *reinterpret_cast<const float4*>(b_q + k * p4 + j0);  // b[k][j0..j0+3]
    const float bs[kTile] = {row.x, row.y, row.z, row.w};
#pragma unroll
    for (int r = 0; r < kTile; ++r) {
      const float a_rk = rows[r][k];
#pragma unroll
      for (int t = 0; t < kTile; ++t) sum[r][t] += a_rk * bs[t];
    }
  }
#pragma unroll
  for (int r = 0; r < kTile; ++r)
#pragma unroll
    for (int t = 0; t < kTile; ++t)
      if (i0 + r < m && j0 + t < p) c[(q * m + i0 + r) * p + j0 + t] = sum[r][t];
}
