#pragma once
// The opencl rung's kernel (kernels/convolution/convolution.cl) in CUDA, for
// the cuda_tiles rung. The full 2-D convolution, zero outside the image:
//   output[y][x] = sum over (a, b) of kernel[K-1-a][L-1-b] * padded[y + a][x + b],
// where padded is the image with K-1 zero rows and L-1 zero columns on every
// side (padded[r][c] = image[r - (K-1)][c - (L-1)], 0 outside the image).
//
// One block of 16×16 threads computes one 16×16 block of outputs. Its
// threads first copy the padded region that the block reads,
// (16+K-1)×(16+L-1) pixels, into a shared-memory tile, so that each pixel
// comes from global memory once, not K·L times; then each thread computes
// one output from the tile. The weights are in __constant__ memory, where
// one value read by the whole warp is a single broadcast; weights too large
// for the 16 KiB reserved here are read from global memory instead
// (kConstantWeights = false).
constexpr int kTilesBlock = 16;              // outputs per block side, and threads
constexpr int kTilesConstantWeights = 4096;  // 16 KiB: K·L up to 64×64

__constant__ float tiles_weights[kTilesConstantWeights];  // the kernel as given, K×L, row by row

// weights: the global copy, read only when !kConstantWeights.
template <bool kConstantWeights>
__global__ void __launch_bounds__(kTilesBlock* kTilesBlock)
    convolve_tiles(const float* __restrict__ image, int height, int width, const float* __restrict__ weights, int rows,
                   int columns, float* __restrict__ output, int out_height, int out_width) {
  extern __shared__ float tile[];  // tile[r * tile_width + c] = padded[y0 + r][x0 + c]
  const int tile_height = kTilesBlock + rows - 1, tile_width = kTilesBlock + columns - 1;
  const int y0 = blockIdx.y * kTilesBlock, x0 = blockIdx.x * kTilesBlock;

  // The bounds check happens here, once per pixel loaded.
  for (int i = threadIdx.y * kTilesBlock + threadIdx.x; i < tile_height * tile_width; i += kTilesBlock * kTilesBlock) {
    const int r = i / tile_width, c = i % tile_width;
    const int iy = y0 + r - (rows - 1), ix = x0 + c - (columns - 1);
    tile[i] = (iy >= 0 && iy < height && ix >= 0 && ix < width) ? image[iy * width + ix] : 0.0f;
  }
  __syncthreads();  // the whole tile is in before anyone reads it

  float sum = 0.0f;
  for (int a = 0; a < rows; ++a)
    for (int b = 0; b < columns; ++b) {  // the weights read backwards: a convolution, not a correlation
      const int w = (rows - 1 - a) * columns + (columns - 1 - b);
      sum +=
          (kConstantWeights ? tiles_weights[w] : weights[w]) * tile[(threadIdx.y + a) * tile_width + threadIdx.x + b];
    }

  const int y = y0 + threadIdx.y, x = x0 + threadIdx.x;
  if (y < out_height && x < out_width) output[y * out_width + x] = sum;  // edge blocks reach past the output
}
