// Round 1 (output-1.txt): cuda_unrolled's kernel (kernels/convolution/convolution_unrolled.cuh)
// against candidates for issue 20's 45 µs at the workshop size, on a 2048²
// and an 8192² image of noise ⊗ a 15 × 15 kernel of noise, full output:
//   fill  - the same computation; the tile's fill loop over compile-time
//           dimensions, and without bounds checks in blocks whose tile lies
//           inside the image (every block but the edge ones).
//   cols2 - fill, and two neighbouring output columns a thread: the tile
//           column read for output x at weight column b + 1 is the one
//           output x + 1 reads at b, so each pixel column is read once for
//           two outputs and each weight serves 16 multiply-adds (8 in cuda_unrolled).
//   cols2_tall - cols2 with 8 warps a block: 64 × 64 outputs, less halo a output.
// Round 2 (output.txt): cuda_unrolled's kernel before (convolution_unrolled_before.cuh,
// commit 48a19e2) and after taking `fill` into it, and other tile shapes of `fill`:
//   tall    - 8 warps a block, 32 × 64 outputs (less halo an output);
//   short   - 8 warps a block, 4 outputs a thread, 32 × 32 outputs;
//   strip16 - 4 warps a block, 16 outputs a thread, 32 × 64 outputs.
// Every variant adds each output's products in cuda_unrolled's order
// (weight column b outer, row a inner), so the outputs must be equal bit
// for bit. CUDA events around the kernel alone, median of 40 after 5
// warm-ups, the L2 evicted before each.
// Build: nvcc -O3 -std=c++20 -arch=sm_90 -I../../.. variants.cu -o variants
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernels/convolution/convolution_unrolled.cuh"
// cuda_unrolled's kernel before this experiment (commit 48a19e2), in a namespace of its own.
namespace before {
#include "convolution_unrolled_before.cuh"
}

#define CHECK(call)                                                                                       \
  do {                                                                                                    \
    cudaError_t status_ = (call);                                                                         \
    if (status_ != cudaSuccess) {                                                                         \
      std::fprintf(stderr, "%s failed: %s (line %d)\n", #call, cudaGetErrorString(status_), __LINE__); \
      std::exit(1);                                                                                       \
    }                                                                                                     \
  } while (0)

// K × K weights (flipped, column-major as unrolled_weights holds them), kStrip
// outputs down a column and kCols neighbouring columns a thread, 32 × kThreadsY threads.
template <int K, int kStrip, int kCols, int kThreadsY>
__global__ void __launch_bounds__(32 * kThreadsY)
    convolve_register_tiles(const float* __restrict__ image, int height, int width, float* __restrict__ output,
                            int out_height, int out_width) {
  constexpr int kTileW = 32 * kCols, kTileH = kThreadsY * kStrip;  // outputs a block
  constexpr int kRows = kTileH + K - 1, kColumns = kTileW + K - 1;    // the tile of pixels they read
  constexpr int kStride = unrolled_column_stride(kRows);
  constexpr int kPixels = (kStrip + K - 1 + 3) / 4 * 4;
  constexpr int kThreads = 32 * kThreadsY;
  extern __shared__ float4 tile4[];
  float* tile = reinterpret_cast<float*>(tile4);
  const int y0 = blockIdx.y * kTileH, x0 = blockIdx.x * kTileW;
  const int oy = y0 - (K - 1), ox = x0 - (K - 1);  // the tile's first pixel in the image
  const int thread = threadIdx.y * 32 + threadIdx.x;
  if (oy >= 0 && ox >= 0 && oy + kRows <= height && ox + kColumns <= width) {
#pragma unroll 4
    for (int i = thread; i < kRows * kColumns; i += kThreads) {
      const int r = i / kColumns, c = i % kColumns;
      tile[c * kStride + r] = image[(oy + r) * width + ox + c];
    }
  } else {
#pragma unroll 4
    for (int i = thread; i < kRows * kColumns; i += kThreads) {
      const int r = i / kColumns, c = i % kColumns;
      const int iy = oy + r, ix = ox + c;
      tile[c * kStride + r] = (iy >= 0 && iy < height && ix >= 0 && ix < width) ? image[iy * width + ix] : 0.0f;
    }
  }
  __syncthreads();

  float sum[kCols][kStrip] = {};
  const float* strip = tile + kCols * threadIdx.x * kStride + threadIdx.y * kStrip;
  float pixels[kCols][kPixels];
  auto load = [&](float* into, const float* column) {
#pragma unroll
    for (int v = 0; v < kPixels / 4; ++v) {
      const float4 four = reinterpret_cast<const float4*>(column)[v];
      into[4 * v] = four.x, into[4 * v + 1] = four.y, into[4 * v + 2] = four.z, into[4 * v + 3] = four.w;
    }
  };
#pragma unroll
  for (int c = 0; c + 1 < kCols; ++c) load(pixels[c], strip + c * kStride);
#pragma unroll
  for (int b = 0; b < K; ++b) {
    // pixels[c] holds tile column (thread's first) + b + c.
    load(pixels[kCols - 1], strip + (b + kCols - 1) * kStride);
    const float* weights = unrolled_weights + b * K;
#pragma unroll
    for (int a = 0; a < K; ++a)
#pragma unroll
      for (int c = 0; c < kCols; ++c)
#pragma unroll
        for (int p = 0; p < kStrip; ++p) sum[c][p] = fmaf(weights[a], pixels[c][p + a], sum[c][p]);
#pragma unroll
    for (int c = 0; c + 1 < kCols; ++c)
#pragma unroll
      for (int v = 0; v < kPixels; ++v) pixels[c][v] = pixels[c + 1][v];
  }

#pragma unroll
  for (int c = 0; c < kCols; ++c) {
    const int x = x0 + kCols * threadIdx.x + c;
#pragma unroll
    for (int p = 0; p < kStrip; ++p) {
      const int y = y0 + threadIdx.y * kStrip + p;
      if (y < out_height && x < out_width) output[y * out_width + x] = sum[c][p];
    }
  }
}

template <class Launch>
double median_us(Launch launch, void* scrub, std::size_t scrub_bytes) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int r = 0; r < 45; ++r) {
    CHECK(cudaMemsetAsync(scrub, r, scrub_bytes));
    CHECK(cudaEventRecord(start));
    launch();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (r >= 5) times.push_back(ms * 1000);
  }
  CHECK(cudaGetLastError());
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

template <int K, int kStrip, int kCols, int kThreadsY>
struct Variant {
  static constexpr int kTileW = 32 * kCols, kTileH = kThreadsY * kStrip;
  static std::size_t shared_bytes() {
    return std::size_t(unrolled_column_stride(kTileH + K - 1)) * (kTileW + K - 1) * sizeof(float);
  }
  static void setup() {
    CHECK(cudaFuncSetAttribute(convolve_register_tiles<K, kStrip, kCols, kThreadsY>,
                               cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared_bytes())));
  }
  static void launch(const float* image, int side, float* out, int out_side) {
    convolve_register_tiles<K, kStrip, kCols, kThreadsY>
        <<<dim3((out_side + kTileW - 1) / kTileW, (out_side + kTileH - 1) / kTileH), dim3(32, kThreadsY),
           shared_bytes()>>>(image, side, side, out, out_side, out_side);
  }
  static int registers() {
    cudaFuncAttributes attributes;
    CHECK(cudaFuncGetAttributes(&attributes, convolve_register_tiles<K, kStrip, kCols, kThreadsY>));
    return attributes.numRegs;
  }
};

int main() {
  constexpr int K = 15;
  const std::size_t scrub_bytes = 256u << 20;
  void* scrub;
  CHECK(cudaMalloc(&scrub, scrub_bytes));
  unsigned state = 12345;
  auto next = [&] { state = state * 1664525u + 1013904223u; return (state >> 8) * (2.0f / 16777216.0f) - 1.0f; };
  std::vector<float> kernel(K * K);
  for (float& w : kernel) w = next();
  // unrolled_weights[b * K + a] = the flipped kernel's [a][b] = kernel[K-1-a][K-1-b].
  std::vector<float> weights(K * K);
  for (int a = 0; a < K; ++a)
    for (int b = 0; b < K; ++b) weights[b * K + a] = kernel[(K - 1 - a) * K + (K - 1 - b)];
  CHECK(cudaMemcpyToSymbol(unrolled_weights, weights.data(), K * K * sizeof(float)));
  CHECK(cudaMemcpyToSymbol(before::unrolled_weights, weights.data(), K * K * sizeof(float)));

  using Tall = Variant<K, 8, 1, 8>;
  using Short = Variant<K, 4, 1, 8>;
  using Strip16 = Variant<K, 16, 1, 4>;
  Tall::setup(), Short::setup(), Strip16::setup();
  std::printf("registers: tall %d, short %d, strip16 %d\n", Tall::registers(), Short::registers(), Strip16::registers());
  const std::size_t unrolled_shared = std::size_t(unrolled_column_stride(kUnrolledTileHeight + K - 1)) *
                                      (kUnrolledTileWidth + K - 1) * sizeof(float);
  CHECK(cudaFuncSetAttribute(convolve_unrolled<K, K>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(unrolled_shared)));
  CHECK(cudaFuncSetAttribute(before::convolve_unrolled<K, K>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             int(unrolled_shared)));

  std::printf("side,before_us,unrolled_us,tall_us,short_us,strip16_us,fma_us_at_64.9tflops,differing_outputs\n");
  for (int round = 0; round < 2; ++round)
    for (int side : {2048, 8192}) {
      const int out = side + K - 1;
      std::vector<float> image(std::size_t(side) * side), want(std::size_t(out) * out), got(want.size());
      for (float& x : image) x = next();
      float *d_image, *d_out;
      CHECK(cudaMalloc(&d_image, image.size() * 4));
      CHECK(cudaMalloc(&d_out, got.size() * 4));
      CHECK(cudaMemcpy(d_image, image.data(), image.size() * 4, cudaMemcpyHostToDevice));
      const dim3 grid((out + kUnrolledTileWidth - 1) / kUnrolledTileWidth, (out + kUnrolledTileHeight - 1) / kUnrolledTileHeight);
      const dim3 block(kUnrolledThreadsX, kUnrolledThreadsY);
      auto old_kernel = [&] {
        before::convolve_unrolled<K, K><<<grid, block, unrolled_shared>>>(d_image, side, side, K, K, 1, d_out, out, out);
      };
      auto new_kernel = [&] {
        convolve_unrolled<K, K><<<grid, block, unrolled_shared>>>(d_image, side, side, K, K, 1, d_out, out, out);
      };
      const double t_before = median_us(old_kernel, scrub, scrub_bytes);
      CHECK(cudaMemcpy(want.data(), d_out, want.size() * 4, cudaMemcpyDeviceToHost));
      double times[4];
      long differing = 0;
      auto compare = [&] {
        CHECK(cudaMemcpy(got.data(), d_out, got.size() * 4, cudaMemcpyDeviceToHost));
        for (std::size_t e = 0; e < got.size(); ++e) differing += std::memcmp(&got[e], &want[e], 4) != 0;
      };
      CHECK(cudaMemset(d_out, 0xff, got.size() * 4));
      times[0] = median_us(new_kernel, scrub, scrub_bytes);
      compare();
      int i = 1;
      for (auto launch : {&Tall::launch, &Short::launch, &Strip16::launch}) {
        CHECK(cudaMemset(d_out, 0xff, got.size() * 4));
        times[i++] = median_us([&] { launch(d_image, side, d_out, out); }, scrub, scrub_bytes);
        compare();
      }
      std::printf("%d,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%ld\n", side, t_before, times[0], times[1], times[2], times[3],
                  double(out) * out * K * K * 2 / 64.9e6, differing);
      CHECK(cudaFree(d_image));
      CHECK(cudaFree(d_out));
    }
  return 0;
}
