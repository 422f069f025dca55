#pragma once
// The full 2-D convolution of convolution_tiles.cuh (the definition is
// there) with the kernel given as a sum of separable terms
// (solutions/convolution/separable_terms.hpp):
//
//     kernel[i][j] = Σ_t column[t][i] · row[t][j]
//
// so that each term is two 1-D convolutions, one across the rows and one
// down the columns: K + L multiply-adds an output instead of K·L.
//
// One block of 32 × 8 threads computes a 32-wide, 64-high block of outputs:
// - It copies the padded region that block reads into a shared-memory tile,
//   row by row, as one flat range of pixels (bounds tests only in the
//   blocks along the image's edges), as convolve_unrolled does.
// - For each term, the pass across: every tile row's 32 outputs of the 1-D
//   convolution with the term's row weights, into a second tile (one
//   output a thread, eight rows apart). Then the pass down: each thread's
//   8 outputs down one column, from that second tile and the term's column
//   weights. Neighbouring lanes read neighbouring floats: no bank conflicts.
// - The weights are flipped on the host (a convolution reads the kernel
//   backwards) and read from global memory: every lane of a warp reads the
//   same one, a single broadcast from the L1 cache. Compiled for the
//   kernel's size, each term's weights are read once into registers.
#include <cstddef>

constexpr int kSeparableThreadsX = 32;  // one warp across the tile
constexpr int kSeparableThreadsY = 8;
constexpr int kSeparableThreads = kSeparableThreadsX * kSeparableThreadsY;
constexpr int kSeparableStrip = 8;                                          // outputs per thread, down a column
constexpr int kSeparableTileWidth = kSeparableThreadsX;                     // output columns per block
constexpr int kSeparableTileHeight = kSeparableThreadsY * kSeparableStrip;  // output rows per block

// The two shared-memory tiles for a K×L kernel, in floats: the padded
// region (64 + K - 1 rows of 32 + L - 1) and the pass across (64 + K - 1
// rows of 32).
__host__ __device__ constexpr int separable_shared_floats(int rows, int columns) {
  return (kSeparableTileHeight + rows - 1) * (kSeparableTileWidth + columns - 1 + kSeparableTileWidth);
}

// weights: term t's K column weights, flipped, at t·(K + L), then its L row
// weights, flipped. kRows and kColumns: the kernel's size where it is
// compiled in (square odd kernels up to 15 × 15, as in cuda_unrolled: the
// loops over the weights unroll and each term's weights sit in registers);
// 0 where it comes at run time.
template <int kRows, int kColumns>
__global__ void __launch_bounds__(kSeparableThreads)
    convolve_separable(const float* __restrict__ image, int height, int width, int run_time_rows, int run_time_columns,
                       int rank, const float* __restrict__ weights, float* __restrict__ output, int out_height,
                       int out_width) {
  const int rows = kRows > 0 ? kRows : run_time_rows, columns = kColumns > 0 ? kColumns : run_time_columns;
  extern __shared__ float shared[];
  const int tile_height = kSeparableTileHeight + rows - 1, tile_width = kSeparableTileWidth + columns - 1;
  float* tile = shared;                               // tile_height × tile_width, row-major
  float* across = shared + tile_height * tile_width;  // tile_height × 32: one term's pass across
  const int y0 = blockIdx.y * kSeparableTileHeight, x0 = blockIdx.x * kSeparableTileWidth;

  // Coalesced reads along an image row, zeros outside the image.
  const int top = y0 - (rows - 1), left = x0 - (columns - 1);  // the tile's first pixel in the image
  const int thread = threadIdx.y * kSeparableThreadsX + threadIdx.x;
  if (top >= 0 && left >= 0 && top + tile_height <= height && left + tile_width <= width) {
    for (int i = thread; i < tile_height * tile_width; i += kSeparableThreads) {
      const int r = i / tile_width, c = i % tile_width;
      tile[i] = image[(top + r) * width + left + c];
    }
  } else {
    for (int i = thread; i < tile_height * tile_width; i += kSeparableThreads) {
      const int r = i / tile_width, c = i % tile_width, iy = top + r, ix = left + c;
      tile[i] = (iy >= 0 && iy < height && ix >= 0 && ix < width) ? image[iy * width + ix] : 0.0f;
    }
  }

  float sum[kSeparableStrip] = {};
  const int first_row = threadIdx.y * kSeparableStrip;  // this thread's first output row in the block
  for (int t = 0; t < rank; ++t) {
    const float* column_weights = weights + t * (rows + columns);
    const float* row_weights = column_weights + rows;
    __syncthreads();  // the tile is in, and the last term's pass down has read `across`
    // Across: tile row r, output column threadIdx.x, the term's L row weights.
    for (int r = threadIdx.y; r < tile_height; r += kSeparableThreadsY) {
      const float* pixels = tile + r * tile_width + threadIdx.x;
      float s = 0.0f;
#pragma unroll(kColumns > 0 ? kColumns : 1)
      for (int b = 0; b < columns; ++b) s = fmaf(row_weights[b], pixels[b], s);
      across[r * kSeparableTileWidth + threadIdx.x] = s;
    }
    __syncthreads();  // every row across is done before any column reads it
    // Down: this thread's 8 outputs, the term's K column weights.
    const float* values = across + first_row * kSeparableTileWidth + threadIdx.x;
#pragma unroll(kRows > 0 ? kRows : 1)
    for (int a = 0; a < rows; ++a) {
      const float w = column_weights[a];
#pragma unroll
      for (int p = 0; p < kSeparableStrip; ++p) sum[p] = fmaf(w, values[(p + a) * kSeparableTileWidth], sum[p]);
    }
  }

  const int x = x0 + threadIdx.x;
#pragma unroll
  for (int p = 0; p < kSeparableStrip; ++p) {
    const int y = y0 + first_row + p;
    if (y < out_height && x < out_width) output[y * out_width + x] = sum[p];  // edge blocks reach past the output
  }
}
