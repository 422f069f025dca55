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
//   convolution with the term's row weights, into a second tile. A thread
//   does two neighbouring outputs of a row (half a warp a row), so that it
//   reads the pixels they share once, two at a time: the L + 1 pixels of
//   two outputs in L / 2 + 1 loads (8-byte ones, bar an even L's last),
//   where one output a thread read L pixels in L loads. Shared memory, not the multiply-adds, bounds
//   this pass. Then the pass down: each thread's 8 outputs down one
//   column, from that second tile and the term's column weights.
//   Neighbouring lanes read neighbouring words: no bank conflicts.
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

// A padded tile row's length in floats, rounded up to even, so that every
// row starts on an 8-byte boundary for the pass across's paired loads.
__host__ __device__ constexpr int separable_tile_stride(int columns) {
  return (kSeparableTileWidth + columns - 1 + 1) / 2 * 2;
}

// The two shared-memory tiles for a K×L kernel, in floats: the padded
// region (64 + K - 1 rows of 32 + L - 1, in rows of the even stride) and
// the pass across (64 + K - 1 rows of 32).
__host__ __device__ constexpr int separable_shared_floats(int rows, int columns) {
  return (kSeparableTileHeight + rows - 1) * (separable_tile_stride(columns) + kSeparableTileWidth);
}

// weights: term t's K column weights, flipped, at t·(K + L), then its L row
// weights, flipped. kRows and kColumns: the kernel's size where it is
// compiled in (square odd kernels up to 15 × 15, as in cuda_unrolled: the
// loops over the weights unroll and each term's weights sit in registers);
// 0 where it comes at run time.
//
// Six blocks an SM at once (the launch bounds' second figure) from sm_80 on,
// whose SMs hold 1536 threads or more: the 15 × 15 kernel would take 47
// registers a thread and leave room for five: the workshop size's 2145
// blocks would be 3.25 waves on an H100's 132 SMs instead of 2.71. Held to
// 40 (ptxas), it spills nothing.
// Earlier GPUs hold 1024 threads an SM at most: no such bound there.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define LADDER_SEPARABLE_MIN_BLOCKS 1
#else
#define LADDER_SEPARABLE_MIN_BLOCKS 6
#endif
template <int kRows, int kColumns>
__global__ void __launch_bounds__(kSeparableThreads, LADDER_SEPARABLE_MIN_BLOCKS)
    convolve_separable(const float* __restrict__ image, int height, int width, int run_time_rows, int run_time_columns,
                       int rank, const float* __restrict__ weights, float* __restrict__ output, int out_height,
                       int out_width) {
  const int rows = kRows > 0 ? kRows : run_time_rows, columns = kColumns > 0 ? kColumns : run_time_columns;
  extern __shared__ float shared[];
  const int tile_height = kSeparableTileHeight + rows - 1, tile_width = kSeparableTileWidth + columns - 1;
  const int stride = separable_tile_stride(columns);
  float* tile = shared;                           // tile_height rows of tile_width, `stride` apart
  float* across = shared + tile_height * stride;  // tile_height × 32: one term's pass across
  const int y0 = blockIdx.y * kSeparableTileHeight, x0 = blockIdx.x * kSeparableTileWidth;

  // Coalesced reads along an image row, zeros outside the image.
  const int top = y0 - (rows - 1), left = x0 - (columns - 1);  // the tile's first pixel in the image
  const int thread = threadIdx.y * kSeparableThreadsX + threadIdx.x;
  if (top >= 0 && left >= 0 && top + tile_height <= height && left + tile_width <= width) {
    for (int i = thread; i < tile_height * tile_width; i += kSeparableThreads) {
      const int r = i / tile_width, c = i % tile_width;
      tile[r * stride + c] = image[(top + r) * width + left + c];
    }
  } else {
    for (int i = thread; i < tile_height * tile_width; i += kSeparableThreads) {
      const int r = i / tile_width, c = i % tile_width, iy = top + r, ix = left + c;
      tile[r * stride + c] = (iy >= 0 && iy < height && ix >= 0 && ix < width) ? image[iy * width + ix] : 0.0f;
    }
  }

  float sum[kSeparableStrip] = {};
  const int first_row = threadIdx.y * kSeparableStrip;  // this thread's first output row in the block
  for (int t = 0; t < rank; ++t) {
    const float* column_weights = weights + t * (rows + columns);
    const float* row_weights = column_weights + rows;
    __syncthreads();  // the tile is in, and the last term's pass down has read `across`
    // Across: tile row r, output columns 2j and 2j + 1, the term's L row
    // weights. Output 2j reads pixels[0 ... L - 1], output 2j + 1
    // pixels[1 ... L]; `pair` holds pixels b and b + 1 as weight b is used.
    constexpr int kPairsInRow = kSeparableTileWidth / 2;
    const int j = threadIdx.x % kPairsInRow;
    for (int r = 2 * threadIdx.y + threadIdx.x / kPairsInRow; r < tile_height; r += 2 * kSeparableThreadsY) {
      const float* pixels = tile + r * stride + 2 * j;
      float2 pair = *reinterpret_cast<const float2*>(pixels);
      float s0 = 0.0f, s1 = 0.0f;
      int b = 0;
#pragma unroll(kColumns > 1 ? kColumns / 2 : 1)
      for (; b + 1 < columns; b += 2) {
        // Pixels b + 2 and b + 3; b + 3 is past what the two outputs read
        // (and may be past the row) where b + 2 is the last weight's pixel.
        const float2 next = b + 2 == columns ? make_float2(pixels[b + 2], 0.0f)
                                             : *reinterpret_cast<const float2*>(pixels + b + 2);
        s0 = fmaf(row_weights[b], pair.x, s0);
        s1 = fmaf(row_weights[b], pair.y, s1);
        s0 = fmaf(row_weights[b + 1], pair.y, s0);
        s1 = fmaf(row_weights[b + 1], next.x, s1);
        pair = next;
      }
      if (b < columns) {  // an odd L's last weight
        s0 = fmaf(row_weights[b], pair.x, s0);
        s1 = fmaf(row_weights[b], pair.y, s1);
      }
      *reinterpret_cast<float2*>(across + r * kSeparableTileWidth + 2 * j) = make_float2(s0, s1);
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
