#pragma once
// Candidate: the kernel size known at compile time. (Experiment copy; the
// rung's version lives in kernels/convolution/.)
constexpr int kUnrolledThreadsX = 32;  // one warp across: 32 output columns
constexpr int kUnrolledThreadsY = 4;
constexpr int kUnrolledMaxSide = 15;
__constant__ float unrolled_weights[kUnrolledMaxSide * kUnrolledMaxSide];  // flipped, [a][b]

// Column stride of the transposed tile: at least its height, 4 more than a
// multiple of 8, so that 8 neighbouring threads' 16-byte reads (one
// column apart) fall in different banks.
__host__ __device__ constexpr int unrolled_stride(int height) { return height + (12 - height % 8) % 8; }

template <int K, int S>
__global__ void __launch_bounds__(kUnrolledThreadsX* kUnrolledThreadsY)
    convolve_unrolled(const float* __restrict__ image, int height, int width, float* __restrict__ output,
                      int out_height, int out_width) {
  constexpr int kTileHeight = kUnrolledThreadsY * S + K - 1, kTileWidth = kUnrolledThreadsX + K - 1;
  constexpr int kStride = unrolled_stride(kTileHeight + 3);  // + 3: the last float4 may read past the tile
  constexpr int kPixels = (S + K - 1 + 3) / 4 * 4;
  __shared__ __align__(16) float tile[kTileWidth * kStride];
  const int y0 = blockIdx.y * kUnrolledThreadsY * S, x0 = blockIdx.x * kUnrolledThreadsX;
  for (int r = threadIdx.y; r < kTileHeight; r += kUnrolledThreadsY)
    for (int c = threadIdx.x; c < kTileWidth; c += kUnrolledThreadsX) {
      const int iy = y0 + r - (K - 1), ix = x0 + c - (K - 1);
      tile[c * kStride + r] = (iy >= 0 && iy < height && ix >= 0 && ix < width) ? image[iy * width + ix] : 0.0f;
    }
  __syncthreads();

  float sum[S] = {};
  const float* column = tile + threadIdx.x * kStride + threadIdx.y * S;
#pragma unroll
  for (int b = 0; b < K; ++b) {
    float pixels[kPixels];
#pragma unroll
    for (int v = 0; v < kPixels / 4; ++v) {
      const float4 q = *reinterpret_cast<const float4*>(column + b * kStride + 4 * v);
      pixels[4 * v] = q.x, pixels[4 * v + 1] = q.y, pixels[4 * v + 2] = q.z, pixels[4 * v + 3] = q.w;
    }
#pragma unroll
    for (int a = 0; a < K; ++a)
#pragma unroll
      for (int p = 0; p < S; ++p) sum[p] = fmaf(unrolled_weights[a * K + b], pixels[p + a], sum[p]);
  }
  const int x = x0 + threadIdx.x;
#pragma unroll
  for (int p = 0; p < S; ++p) {
    const int y = y0 + threadIdx.y * S + p;
    if (y < out_height && x < out_width) output[y * out_width + x] = sum[p];
  }
}
