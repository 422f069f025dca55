#pragma once
// The full 2-D convolution, zero outside the image:
//   output[y][x] = sum over (a, b) of weights[a][b] * padded[y + a][x + b],
// where weights is the kernel flipped (weights[a][b] = kernel[K-1-a][L-1-b])
// and padded is the image with K-1 zero rows and L-1 zero columns on every
// side (padded[r][c] = image[r - (K-1)][c - (L-1)], 0 outside the image).
//
// One block of 32×8 threads computes a 128×32 block of outputs:
// - It copies the padded region that block reads into a shared-memory tile
//   (bounds checks only here), so each pixel is read from global memory once.
// - Each thread computes a strip of kConvStrip = 16 outputs down one column.
//   Neighbouring outputs of a column read the same pixels with neighbouring
//   weight rows, so a pixel loaded from shared memory into a register serves
//   several outputs: for each chunk of kConvChunk = 4 weight rows and each
//   weight column b, a thread loads 16 + 4 - 1 = 19 pixels and 4 weights and
//   does 16 × 4 = 64 fused multiply-adds.
// - The tile is stored column by column (transposed), so that a thread's 19
//   pixels are contiguous (one address, constant offsets), and its column
//   length, kConvTileHeight + rows_padded - 1, is odd: the 32 threads of a
//   warp, one column apart, then read 32 different shared-memory banks.
// - The weights are in __constant__ memory, where one value read by the whole
//   warp is a single broadcast. The host pads them with zero rows to a
//   multiple of kConvChunk (K = 15 runs as 16, one wasted row in 16), so the
//   chunk loop needs no remainder, and stores each chunk's 4 weights of a
//   column side by side (one float4): one constant load per 64 FMAs, in the
//   order the loops read them. Weights too large for the 16 KiB reserved
//   here are read from global memory instead (kConstantWeights = false).
#include <cstddef>

constexpr int kConvThreadsX = 32;  // one warp across the tile
constexpr int kConvThreadsY = 8;
constexpr int kConvThreads = kConvThreadsX * kConvThreadsY;
constexpr int kConvStrip = 16;                               // outputs per thread, down a column
constexpr int kConvChunk = 4;                                // weight rows per step: one float4
constexpr int kConvTileWidth = kConvThreadsX;                // output columns per block
constexpr int kConvTileHeight = kConvThreadsY * kConvStrip;  // output rows per block
constexpr int kConvConstantChunks = 1024;                    // 16 KiB: K·L up to 64×64, padding included

// convolution_weights[chunk * L + b] = weights[4 chunk + c][b] for c = 0..3 (.x .. .w).
__constant__ float4 convolution_weights[kConvConstantChunks];

// rows_padded: K rounded up to a multiple of kConvChunk (the zero rows of
// the weights); weights: the global copy, read only when !kConstantWeights.
template <bool kConstantWeights>
__global__ void __launch_bounds__(kConvThreads)
    convolve_strips(const float* __restrict__ image, int height, int width, const float4* __restrict__ weights,
                    int rows, int rows_padded, int columns, float* __restrict__ output, int out_height, int out_width) {
  // tile[c * tile_height + r] = padded[y0 + r][x0 + c], column by column.
  extern __shared__ float tile[];
  const int tile_height = kConvTileHeight + rows_padded - 1;  // odd: rows_padded is a multiple of 4
  const int tile_width = kConvTileWidth + columns - 1;
  const int y0 = blockIdx.y * kConvTileHeight, x0 = blockIdx.x * kConvTileWidth;

  // A warp reads 32 neighbouring pixels of an image row (coalesced) and
  // writes them one column apart (odd stride: no bank conflicts). Rows past
  // the image, read with the zero weight rows, are zeros like the padding.
  for (int r = threadIdx.y; r < tile_height; r += kConvThreadsY)
    for (int c = threadIdx.x; c < tile_width; c += kConvThreadsX) {
      const int iy = y0 + r - (rows - 1), ix = x0 + c - (columns - 1);
      tile[c * tile_height + r] = (iy >= 0 && iy < height && ix >= 0 && ix < width) ? image[iy * width + ix] : 0.0f;
    }
  __syncthreads();  // the whole tile is in before anyone reads it

  float sum[kConvStrip] = {};
  const float* strip = tile + threadIdx.x * tile_height + threadIdx.y * kConvStrip;  // this thread's first pixel
  for (int a0 = 0; a0 < rows_padded; a0 += kConvChunk)
    for (int b = 0; b < columns; ++b) {
      const int chunk = (a0 / kConvChunk) * columns + b;
      const float4 w4 = kConstantWeights ? convolution_weights[chunk] : weights[chunk];
      const float w[kConvChunk] = {w4.x, w4.y, w4.z, w4.w};
      // Pixels (a0 + s, b) from the strip's top: each serves up to kConvChunk outputs.
      float pixels[kConvStrip + kConvChunk - 1];
#pragma unroll
      for (int s = 0; s < kConvStrip + kConvChunk - 1; ++s) pixels[s] = strip[b * tile_height + a0 + s];
#pragma unroll
      for (int c = 0; c < kConvChunk; ++c)
#pragma unroll
        for (int p = 0; p < kConvStrip; ++p) sum[p] = fmaf(w[c], pixels[p + c], sum[p]);
    }

  const int x = x0 + threadIdx.x;
#pragma unroll
  for (int p = 0; p < kConvStrip; ++p) {
    const int y = y0 + threadIdx.y * kConvStrip + p;
    if (y < out_height && x < out_width) output[y * out_width + x] = sum[p];  // edge blocks reach past the output
  }
}
