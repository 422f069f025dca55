// The cuda rung's kernels before (before.cuh: the rung's choice by shape,
// a thread per element below 64 outputs a pair, a block per pair with a
// thread per output below 1024, 4 × 4 register tiles from 1024) and after
// packing pairs into blocks (kernels/batched_matmul/batched_matmul.cuh,
// then with plain loads in place of cp.async), and the thread-per-element
// kernel with two divisions (on every shape), timed side by side on the same inputs (CUDA events, median of 20 after 3
// warm-ups, L2 evicted before each) and checked against a float64 product.
// Build: nvcc -O3 -std=c++20 -arch=sm_90 -I../../.. variants.cu -o variants
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kernels/batched_matmul/batched_matmul.cuh"
namespace before {
#include "before.cuh"
}

// The packed kernel as first written: each thread loads an element into a
// register and stores it to shared memory, one element after the other
// (one load in flight per thread).
__global__ void __launch_bounds__(kMatmulThreads)
    batched_matmul_packed_plain_loads(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                  unsigned batch, unsigned m, unsigned n, unsigned p, MatmulPacking packing) {
  extern __shared__ float4 shared4[];  // 16-byte aligned
  float* const a_s = reinterpret_cast<float*>(shared4);  // [pairs m][n + 1]
  float* const b_s = a_s + packing.b_at;                 // [pairs n][p4]
  const unsigned p4 = round_up_to_tile(p);
  const unsigned first = blockIdx.x * packing.pairs;
  const unsigned pairs = min(packing.pairs, batch - first);

  // The block's pairs are contiguous in a and in b: one coalesced sweep over
  // each. Element (row, k) moves on by the block's size each time, so the
  // loops need no division.
  const float* a_first = a + std::size_t{first} * m * n;
  for (unsigned row = threadIdx.x / n, k = threadIdx.x % n; row < pairs * m;) {
    a_s[row * (n + 1) + k] = a_first[row * n + k];
    row += kMatmulThreads / n, k += kMatmulThreads % n;
    if (k >= n) k -= n, ++row;
  }
  const float* b_first = b + std::size_t{first} * n * p;
  for (unsigned row = threadIdx.x / p4, j = threadIdx.x % p4; row < pairs * n;) {
    b_s[row * p4 + j] = j < p ? b_first[row * p + j] : 0.0f;
    row += kMatmulThreads / p4, j += kMatmulThreads % p4;
    if (j >= p4) j -= p4, ++row;
  }
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

#define CHECK(call)                                                                                       \
  do {                                                                                                    \
    cudaError_t status_ = (call);                                                                         \
    if (status_ != cudaSuccess) {                                                                         \
      std::fprintf(stderr, "%s failed: %s (line %d)\n", #call, cudaGetErrorString(status_), __LINE__); \
      std::exit(1);                                                                                       \
    }                                                                                                     \
  } while (0)

template <class Launch>
double median_us(Launch launch, float* scrub, std::size_t scrub_floats) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int r = 0; r < 23; ++r) {
    CHECK(cudaMemsetAsync(scrub, r, scrub_floats * sizeof(float)));
    CHECK(cudaEventRecord(start));
    launch();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (r >= 3) times.push_back(ms * 1000);
  }
  CHECK(cudaGetLastError());
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

int main() {
  struct Shape { unsigned batch, m, n, p; };
  const Shape shapes[] = {{65536, 16, 16, 16}, {262144, 16, 16, 16}, {16384, 32, 32, 32}, {4096, 64, 64, 64},
                          {262144, 8, 8, 8},   {100003, 13, 7, 9},   {8191, 61, 63, 59},   {1048576, 2, 4, 5},
                          {1048576, 4, 4, 4},  {1048576, 3, 5, 7},   {4194304, 1, 1, 1}};
  const std::size_t scrub_floats = 64u << 20;  // 256 MiB: more than the 50 MiB L2
  float* scrub;
  CHECK(cudaMalloc(&scrub, scrub_floats * sizeof(float)));
  std::printf("batch,m,n,p,bytes_us_at_2900GBps,before_us,packed_us,packed_plain_loads_us,elements_us,pairs_per_block,max_error_before,max_error_packed,max_error_plain,max_error_elements\n");
  for (const Shape& s : shapes) {
    const std::size_t na = std::size_t{s.batch} * s.m * s.n, nb = std::size_t{s.batch} * s.n * s.p,
                      nc = std::size_t{s.batch} * s.m * s.p;
    std::vector<float> a(na), b(nb), c(nc);
    unsigned state = 12345;
    auto next = [&] { state = state * 1664525u + 1013904223u; return (state >> 8) * (2.0f / 16777216.0f) - 1.0f; };
    for (float& x : a) x = next();
    for (float& x : b) x = next();
    float *d_a, *d_b, *d_c;
    CHECK(cudaMalloc(&d_a, na * 4));
    CHECK(cudaMalloc(&d_b, nb * 4));
    CHECK(cudaMalloc(&d_c, nc * 4));
    CHECK(cudaMemcpy(d_a, a.data(), na * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b.data(), nb * 4, cudaMemcpyHostToDevice));
    auto max_error = [&] {  // against float64, on the first and last 64 pairs
      CHECK(cudaMemcpy(c.data(), d_c, nc * 4, cudaMemcpyDeviceToHost));
      double worst = 0;
      for (unsigned q = 0; q < s.batch; q = (q == 63 && s.batch > 128) ? s.batch - 64 : q + 1)
        for (unsigned i = 0; i < s.m; ++i)
          for (unsigned j = 0; j < s.p; ++j) {
            double sum = 0;
            for (unsigned k = 0; k < s.n; ++k)
              sum += double(a[(std::size_t{q} * s.m + i) * s.n + k]) * b[(std::size_t{q} * s.n + k) * s.p + j];
            worst = std::max(worst, std::fabs(sum - c[(std::size_t{q} * s.m + i) * s.p + j]));
          }
      return worst;
    };
    auto launch_before = [&] {
      const unsigned mp = s.m * s.p;
      if (mp < 64) {  // the thread-per-element kernel, unchanged
        const unsigned elements = s.batch * mp;
        before::batched_matmul_elements<<<(elements + 255) / 256, 256>>>(d_a, d_b, d_c, s.m, s.n, s.p, elements);
      } else if (mp >= 1024) {
        const std::size_t b_at = (s.m * s.n + 3) / 4 * 4, p4 = (s.p + 3) / 4 * 4;
        before::batched_matmul_register_tiles<<<s.batch, 256, (b_at + s.n * p4) * 4>>>(d_a, d_b, d_c, s.m, s.n, s.p);
      } else {
        before::batched_matmul_tiles<<<s.batch, 256, (s.m * s.n + s.n * s.p) * 4>>>(d_a, d_b, d_c, s.m, s.n, s.p);
      }
    };
    const MatmulPacking packing = matmul_packing(s.m, s.n, s.p);
    auto launch_elements = [&] {  // the thread-per-element kernel with two divisions, not three
      const unsigned elements = s.batch * s.m * s.p;
      batched_matmul_elements<<<(elements + 255) / 256, 256>>>(d_a, d_b, d_c, s.m, s.n, s.p, elements);
    };
    auto launch_packed = [&] {
      batched_matmul_register_tiles<<<(s.batch + packing.pairs - 1) / packing.pairs, kMatmulThreads,
                                      packing.shared_floats * 4>>>(d_a, d_b, d_c, s.batch, s.m, s.n, s.p, packing);
    };
    const double t_before = median_us(launch_before, scrub, scrub_floats);
    const double e_before = max_error();
    CHECK(cudaMemset(d_c, 0xff, nc * 4));
    const double t_packed = median_us(launch_packed, scrub, scrub_floats);
    const double e_packed = max_error();
    CHECK(cudaMemset(d_c, 0xff, nc * 4));
    const double t_plain = median_us([&] {
      batched_matmul_packed_plain_loads<<<(s.batch + packing.pairs - 1) / packing.pairs, kMatmulThreads,
                                          packing.shared_floats * 4>>>(d_a, d_b, d_c, s.batch, s.m, s.n, s.p, packing);
    }, scrub, scrub_floats);
    const double e_plain = max_error();
    CHECK(cudaMemset(d_c, 0xff, nc * 4));
    const double t_elements = median_us(launch_elements, scrub, scrub_floats);
    const double e_elements = max_error();
    std::printf("%u,%u,%u,%u,%.1f,%.1f,%.1f,%.1f,%.1f,%u,%.2e,%.2e,%.2e,%.2e\n", s.batch, s.m, s.n, s.p,
                (na + nb + nc) * 4 / 2.9e6, t_before, t_packed, t_plain, t_elements, packing.pairs, e_before, e_packed,
                e_plain, e_elements);
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_c));
  }
  return 0;
}
