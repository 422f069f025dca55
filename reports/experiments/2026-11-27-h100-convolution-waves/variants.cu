// Experiment: cuda_unrolled's kernel (kernels/convolution/convolution_unrolled.cuh)
// with its block shape and tile load as template parameters, timed side by
// side on one GPU, every variant's output compared bit for bit with the
// committed kernel's. Full convolution, K = 15, one pass.
//   nvcc -O3 -std=c++20 -arch=sm_90 -I. variants.cu -o variants && ./variants
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernels/convolution/convolution_unrolled.cuh"

#define CHECK(x)                                                                              \
  do {                                                                                        \
    cudaError_t e = (x);                                                                      \
    if (e != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e)); \
      std::exit(1);                                                                           \
    }                                                                                         \
  } while (0)

constexpr int K = 15;

// TY threads in y, STRIP outputs a thread; INCREMENTAL: the tile load walks
// its flat index by adding (no division per pixel).
template <int TY, int STRIP, bool INCREMENTAL>
__global__ void __launch_bounds__(32 * TY)
    convolve_variant(const float* __restrict__ image, int height, int width, float* __restrict__ output,
                     int out_height, int out_width) {
  constexpr int R = K, THREADS = 32 * TY, TILE_H = TY * STRIP;
  constexpr int kPixels = (STRIP + R - 1 + 3) / 4 * 4;
  constexpr int tile_height = TILE_H + R - 1, tile_width = 32 + K - 1;
  constexpr int stride = unrolled_column_stride(tile_height);
  extern __shared__ float4 tile4[];
  float* tile = reinterpret_cast<float*>(tile4);
  const int y0 = blockIdx.y * TILE_H, x0 = blockIdx.x * 32;
  const int top = y0 - (K - 1), left = x0 - (K - 1);
  const int thread = threadIdx.y * 32 + threadIdx.x;
  const bool inside = top >= 0 && left >= 0 && top + tile_height <= height && left + tile_width <= width;
  if (INCREMENTAL && inside) {
    // i = thread + n·THREADS as (r, c): step by (THREADS / w, THREADS % w), carrying c.
    constexpr int dr = THREADS / tile_width, dc = THREADS % tile_width;
    int r = thread / tile_width, c = thread % tile_width;
    const float* source = image + (top + r) * width + left + c;
#pragma unroll 4
    for (int i = thread; i < tile_height * tile_width; i += THREADS) {
      tile[c * stride + r] = *source;
      r += dr, c += dc, source += dr * width + dc;
      if (c >= tile_width) c -= tile_width, r += 1, source += width - tile_width;
    }
  } else if (inside) {
#pragma unroll 4
    for (int i = thread; i < tile_height * tile_width; i += THREADS) {
      const int r = i / tile_width, c = i % tile_width;
      tile[c * stride + r] = image[(top + r) * width + left + c];
    }
  } else {
#pragma unroll 4
    for (int i = thread; i < tile_height * tile_width; i += THREADS) {
      const int r = i / tile_width, c = i % tile_width, iy = top + r, ix = left + c;
      tile[c * stride + r] = (iy >= 0 && iy < height && ix >= 0 && ix < width) ? image[iy * width + ix] : 0.0f;
    }
  }
  __syncthreads();
  float sum[STRIP] = {};
  const float* strip = tile + threadIdx.x * stride + threadIdx.y * STRIP;
#pragma unroll
  for (int b = 0; b < K; ++b) {
    const float* weights = unrolled_weights + b * R;
    const float* column = strip + b * stride;
    float pixels[kPixels];
#pragma unroll
    for (int v = 0; v < kPixels / 4; ++v) {
      const float4 four = reinterpret_cast<const float4*>(column)[v];
      pixels[4 * v] = four.x, pixels[4 * v + 1] = four.y, pixels[4 * v + 2] = four.z, pixels[4 * v + 3] = four.w;
    }
#pragma unroll
    for (int a = 0; a < R; ++a)
#pragma unroll
      for (int p = 0; p < STRIP; ++p) sum[p] = fmaf(weights[a], pixels[p + a], sum[p]);
  }
  const int x = x0 + threadIdx.x;
#pragma unroll
  for (int p = 0; p < STRIP; ++p) {
    const int y = y0 + threadIdx.y * STRIP + p;
    if (y < out_height && x < out_width) output[y * out_width + x] = sum[p];
  }
}

struct Timing {
  float median, best;
};

template <class Launch>
Timing time_it(Launch launch, float* d_evict, std::size_t evict_bytes) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> ms;
  for (int rep = 0; rep < 60; ++rep) {
    CHECK(cudaMemsetAsync(d_evict, rep, evict_bytes));  // the harness evicts L2 before each timing
    CHECK(cudaEventRecord(start));
    launch();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float t;
    CHECK(cudaEventElapsedTime(&t, start, stop));
    if (rep >= 10) ms.push_back(t * 1000.0f);
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms[0]};
}

int main() {
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  std::printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
  std::vector<float> weights(K * K);
  for (int i = 0; i < K * K; ++i) weights[i] = float((i * 37) % 101) / 101.0f;
  CHECK(cudaMemcpyToSymbol(unrolled_weights, weights.data(), weights.size() * sizeof(float)));
  const std::size_t evict_bytes = 256u << 20;
  float* d_evict;
  CHECK(cudaMalloc(&d_evict, evict_bytes));
  for (int n : {2048, 8192}) {
    const int out = n + K - 1;
    std::vector<float> h(std::size_t(n) * n);
    unsigned s = 12345;
    for (auto& v : h) s = s * 1664525u + 1013904223u, v = float(s >> 8) / float(1 << 24);
    float *d_in, *d_ref, *d_out;
    CHECK(cudaMalloc(&d_in, h.size() * 4));
    CHECK(cudaMalloc(&d_ref, std::size_t(out) * out * 4));
    CHECK(cudaMalloc(&d_out, std::size_t(out) * out * 4));
    CHECK(cudaMemcpy(d_in, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    std::vector<float> ref(std::size_t(out) * out), got(ref.size());

    // The committed kernel, as cuda_unrolled launches it.
    const int tile_h = kUnrolledTileHeight + K - 1;
    const std::size_t bytes0 = std::size_t(unrolled_column_stride(tile_h)) * (32 + K - 1) * 4;
    CHECK(cudaFuncSetAttribute(convolve_unrolled<K, K>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes0)));
    const dim3 grid0((out + 31) / 32, (out + kUnrolledTileHeight - 1) / kUnrolledTileHeight);
    auto committed = [&] {
      convolve_unrolled<K, K><<<grid0, dim3(32, kUnrolledThreadsY), bytes0>>>(d_in, n, n, K, K, 1, d_ref, out, out);
    };
    committed();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(ref.data(), d_ref, ref.size() * 4, cudaMemcpyDeviceToHost));
    const Timing t0 = time_it(committed, d_evict, evict_bytes);
    std::printf("%d²: committed 32x%d strip %d: median %.1f us, best %.1f us, %u blocks\n", n, kUnrolledThreadsY,
                kUnrolledStrip, t0.median, t0.best, grid0.x * grid0.y);

    auto variant = [&](auto kernel, int ty, int strip, const char* name) {
      const std::size_t bytes = std::size_t(unrolled_column_stride(ty * strip + K - 1)) * (32 + K - 1) * 4;
      CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
      const dim3 grid((out + 31) / 32, (out + ty * strip - 1) / (ty * strip));
      auto launch = [&] { kernel<<<grid, dim3(32, ty), bytes>>>(d_in, n, n, d_out, out, out); };
      CHECK(cudaMemset(d_out, 0xff, got.size() * 4));
      launch();
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(got.data(), d_out, got.size() * 4, cudaMemcpyDeviceToHost));
      const bool same = std::memcmp(got.data(), ref.data(), got.size() * 4) == 0;
      const Timing t = time_it(launch, d_evict, evict_bytes);
      int blocks_per_sm = 0;
      CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, 32 * ty, bytes));
      std::printf("%d²: %-28s median %.1f us, best %.1f us, %u blocks, %d a SM (%.2f waves), %s\n", n, name, t.median,
                  t.best, grid.x * grid.y, blocks_per_sm,
                  double(grid.x * grid.y) / (blocks_per_sm * p.multiProcessorCount), same ? "identical" : "DIFFERS");
    };
    variant(convolve_variant<4, 8, false>, 4, 8, "32x4 strip 8 (as committed)");
    variant(convolve_variant<4, 8, true>, 4, 8, "32x4 strip 8 incremental");
    variant(convolve_variant<2, 8, false>, 2, 8, "32x2 strip 8");
    variant(convolve_variant<2, 8, true>, 2, 8, "32x2 strip 8 incremental");
    variant(convolve_variant<8, 4, true>, 8, 4, "32x8 strip 4 incremental");
    variant(convolve_variant<4, 4, true>, 4, 4, "32x4 strip 4 incremental");
    variant(convolve_variant<4, 12, true>, 4, 12, "32x4 strip 12 incremental");
    variant(convolve_variant<2, 16, true>, 2, 16, "32x2 strip 16 incremental");
    variant(convolve_variant<4, 16, true>, 4, 16, "32x4 strip 16 incremental");
    variant(convolve_variant<8, 8, true>, 8, 8, "32x8 strip 8 incremental");
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_ref));
    CHECK(cudaFree(d_out));
  }
  // Once more, the committed and the first variant, to see the drift between rounds.
  return 0;
}
