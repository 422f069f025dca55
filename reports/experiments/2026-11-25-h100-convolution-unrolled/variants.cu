// convolution's cuda kernel (convolve_strips, kernels/convolution/convolution_tiles.cuh)
// against candidates with the kernel size known at compile time
// (convolution_unrolled.cuh: every loop unrolled, each weight an operand
// from constant memory, a column of pixels read as float4s), on a 2048² and
// an 8192² image of noise ⊗ a 15 × 15 kernel of noise, full output. CUDA
// events around the kernel alone, median of 20 after 3 warm-ups, the L2
// evicted before each; every output compared with convolve_strips's and
// 4096 sampled outputs with a float64 sum.
// Build: nvcc -O3 -std=c++20 -arch=sm_90 -I../../.. -I. variants.cu -o variants
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "convolution_unrolled.cuh"
#include "kernels/convolution/convolution_tiles.cuh"

#define CHECK(call)                                                                                       \
  do {                                                                                                    \
    cudaError_t status_ = (call);                                                                         \
    if (status_ != cudaSuccess) {                                                                         \
      std::fprintf(stderr, "%s failed: %s (line %d)\n", #call, cudaGetErrorString(status_), __LINE__); \
      std::exit(1);                                                                                       \
    }                                                                                                     \
  } while (0)

template <class Launch>
double median_us(Launch launch, float* scrub, std::size_t scrub_bytes) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int r = 0; r < 23; ++r) {
    CHECK(cudaMemsetAsync(scrub, r, scrub_bytes));
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
  constexpr int K = 15;
  const std::size_t scrub_bytes = 256u << 20;
  float* scrub;
  CHECK(cudaMalloc(&scrub, scrub_bytes));
  unsigned state = 12345;
  auto next = [&] { state = state * 1664525u + 1013904223u; return (state >> 8) * (2.0f / 16777216.0f) - 1.0f; };
  std::vector<float> kernel(K * K);
  for (float& w : kernel) w = next();
  // Flipped weights: weights[a][b] = kernel[K-1-a][K-1-b].
  std::vector<float> flipped(K * K);
  for (int a = 0; a < K; ++a)
    for (int b = 0; b < K; ++b) flipped[a * K + b] = kernel[(K - 1 - a) * K + (K - 1 - b)];
  CHECK(cudaMemcpyToSymbol(unrolled_weights, flipped.data(), K * K * sizeof(float)));
  // The strips kernel's layout: chunks of 4 weight rows of a column as one float4, rows padded to 16.
  const int rows_padded = 16;
  std::vector<float4> chunks;
  for (int a0 = 0; a0 < rows_padded; a0 += 4)
    for (int b = 0; b < K; ++b) {
      float w[4];
      for (int c = 0; c < 4; ++c) w[c] = a0 + c < K ? flipped[(a0 + c) * K + b] : 0.0f;
      chunks.push_back(make_float4(w[0], w[1], w[2], w[3]));
    }
  CHECK(cudaMemcpyToSymbol(convolution_weights, chunks.data(), chunks.size() * sizeof(float4)));
  const std::size_t strips_shared =
      std::size_t(kConvTileHeight + rows_padded - 1) * (kConvTileWidth + K - 1) * sizeof(float);
  CHECK(cudaFuncSetAttribute(convolve_strips<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(strips_shared)));
  CHECK(cudaFuncSetAttribute(convolve_strips<true>, cudaFuncAttributePreferredSharedMemoryCarveout,
                             cudaSharedmemCarveoutMaxShared));

  std::printf("side,strips_us,unrolled_s8_us,unrolled_s16_us,fma_us_at_67tflops,max_diff_s8,max_diff_s16,max_error_strips\n");
  for (int side : {2048, 8192}) {
    const int out = side + K - 1;
    std::vector<float> image(std::size_t(side) * side), got(std::size_t(out) * out), want(got.size());
    for (float& x : image) x = next();
    float *d_image, *d_out;
    CHECK(cudaMalloc(&d_image, image.size() * 4));
    CHECK(cudaMalloc(&d_out, got.size() * 4));
    CHECK(cudaMemcpy(d_image, image.data(), image.size() * 4, cudaMemcpyHostToDevice));
    auto strips = [&] {
      convolve_strips<true><<<dim3((out + kConvTileWidth - 1) / kConvTileWidth, (out + kConvTileHeight - 1) / kConvTileHeight),
                              dim3(kConvThreadsX, kConvThreadsY), strips_shared>>>(d_image, side, side, nullptr, K, rows_padded,
                                                                                   K, d_out, out, out);
    };
    auto unrolled = [&](auto s_tag) {
      constexpr int S = decltype(s_tag)::value;
      convolve_unrolled<K, S><<<dim3((out + kUnrolledThreadsX - 1) / kUnrolledThreadsX,
                                     (out + kUnrolledThreadsY * S - 1) / (kUnrolledThreadsY * S)),
                                dim3(kUnrolledThreadsX, kUnrolledThreadsY)>>>(d_image, side, side, d_out, out, out);
    };
    const double t_strips = median_us(strips, scrub, scrub_bytes);
    CHECK(cudaMemcpy(want.data(), d_out, want.size() * 4, cudaMemcpyDeviceToHost));
    double max_error = 0;
    for (int t = 0; t < 4096; ++t) {
      const int y = int((unsigned(next() * 1e6) + 7u * t) % unsigned(out)), x = int((unsigned(next() * 1e6) + 13u * t) % unsigned(out));
      double sum = 0;
      for (int a = 0; a < K; ++a)
        for (int b = 0; b < K; ++b) {
          const int iy = y + a - (K - 1), ix = x + b - (K - 1);
          if (iy >= 0 && iy < side && ix >= 0 && ix < side) sum += double(flipped[a * K + b]) * image[std::size_t(iy) * side + ix];
        }
      max_error = std::max(max_error, std::fabs(sum - want[std::size_t(y) * out + x]));
    }
    double diff[2] = {0, 0}, times[2] = {0, 0};
    int i = 0;
    for (auto launch : {+[](decltype(unrolled)& u) { u(std::integral_constant<int, 8>{}); },
                        +[](decltype(unrolled)& u) { u(std::integral_constant<int, 16>{}); }}) {
      CHECK(cudaMemset(d_out, 0xff, got.size() * 4));
      times[i] = median_us([&] { launch(unrolled); }, scrub, scrub_bytes);
      CHECK(cudaMemcpy(got.data(), d_out, got.size() * 4, cudaMemcpyDeviceToHost));
      for (std::size_t e = 0; e < got.size(); ++e) diff[i] = std::max(diff[i], double(std::fabs(got[e] - want[e])));
      ++i;
    }
    std::printf("%d,%.1f,%.1f,%.1f,%.1f,%.2e,%.2e,%.2e\n", side, t_strips, times[0], times[1],
                double(out) * out * K * K * 2 / 67e6, diff[0], diff[1], max_error);
    CHECK(cudaFree(d_image));
    CHECK(cudaFree(d_out));
  }
  return 0;
}
