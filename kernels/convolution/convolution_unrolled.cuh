#pragma once
// The full 2-D convolution of convolution_tiles.cuh (the definition is
// there), compiled for the kernel's height: R, the weight rows of one pass,
// is a template parameter, so the loops over the rows of the kernel and
// over a thread's outputs unroll completely, and a thread's registers hold
// the pixels and sums they index with constants.
//
// One block of 32 × 4 threads computes a 32 × 32 block of outputs:
// - It copies the padded region that block reads into a shared-memory tile,
//   transposed, as convolve_strips does, but as one flat range of pixels
//   over the block's threads, with bounds tests only in the edge blocks
//   (measured on the H100 at the workshop size: 55.8 → 50.2 µs).
// - Each thread computes kUnrolledStrip = 8 outputs down one column. For
//   each weight column b it reads the 8 + R − 1 pixels those outputs need
//   from one tile column as float4s (the column stride is 4 more than a
//   multiple of 8, so that eight neighbouring threads' 16-byte reads fall
//   in different banks), and does R × 8 multiply-adds with them, each
//   weight read once from constant memory for 8 of them.
// - Kernels up to 15 rows run in one pass of R = their height (rounded up
//   to an odd number); taller ones in passes of 16 rows. Weight rows past
//   the kernel's last are zeros.
// - 32 × 32 outputs a block make 4225 blocks for the workshop's 2062²
//   outputs: 2.00 waves of 16 blocks per SM on the H100, where the strips
//   kernel's 128 × 32 make 1.05 (a second round for 49 blocks).
#include <cstddef>

constexpr int kUnrolledThreadsX = 32;  // one warp across the tile
constexpr int kUnrolledThreadsY = 4;
constexpr int kUnrolledThreads = kUnrolledThreadsX * kUnrolledThreadsY;
constexpr int kUnrolledStrip = 8;  // outputs per thread, down a column
constexpr int kUnrolledTileWidth = kUnrolledThreadsX;                      // output columns per block
constexpr int kUnrolledTileHeight = kUnrolledThreadsY * kUnrolledStrip;    // output rows per block
constexpr int kUnrolledOnePassRows = 15;                                   // taller kernels take passes of 16
constexpr int kUnrolledConstantFloats = 8192;                              // 32 KiB of weights

// unrolled_weights[(pass * L + b) * R + a] = weights[R pass + a][b]: the R
// weights of one column of one pass side by side, zero past the last row.
__constant__ float unrolled_weights[kUnrolledConstantFloats];

// The tile's column stride for a tile `rows` high (the last float4 of a
// column may reach 3 floats past it): 4 more than a multiple of 8.
__host__ __device__ constexpr int unrolled_column_stride(int rows) {
  return rows + 3 + (12 - (rows + 3) % 8) % 8;
}

// kColumns: the kernel's width where it is compiled in too (square odd
// kernels up to 15 × 15, one pass: then the loop over the weight columns
// unrolls as well, and each weight's place in constant memory is a
// constant); 0 where it comes at run time.
template <int R, int kColumns>
__global__ void __launch_bounds__(kUnrolledThreads)
    convolve_unrolled(const float* __restrict__ image, int height, int width, int rows, int run_time_columns,
                      int run_time_passes, float* __restrict__ output, int out_height, int out_width) {
  const int columns = kColumns > 0 ? kColumns : run_time_columns;
  const int passes = kColumns > 0 ? 1 : run_time_passes;
  constexpr int kPixels = (kUnrolledStrip + R - 1 + 3) / 4 * 4;  // whole float4s
  extern __shared__ float4 tile4[];                               // 16-byte aligned
  float* tile = reinterpret_cast<float*>(tile4);
  const int tile_height = kUnrolledTileHeight + passes * R - 1, tile_width = kUnrolledTileWidth + columns - 1;
  const int stride = unrolled_column_stride(tile_height);
  const int y0 = blockIdx.y * kUnrolledTileHeight, x0 = blockIdx.x * kUnrolledTileWidth;

  // As in convolve_strips: coalesced reads along an image row, zeros outside
  // the image. The tile's pixels are one flat range over the block's
  // threads, so that every lane has a pixel at each step (rows of 32 + K - 1
  // pixels would leave 18 of 32 lanes idle in every second step at K = 15),
  // and only the blocks along the image's edges test each pixel's bounds.
  const int top = y0 - (rows - 1), left = x0 - (columns - 1);  // the tile's first pixel in the image
  const int thread = threadIdx.y * kUnrolledThreadsX + threadIdx.x;
  if (top >= 0 && left >= 0 && top + tile_height <= height && left + tile_width <= width) {
#pragma unroll 4
    for (int i = thread; i < tile_height * tile_width; i += kUnrolledThreads) {
      const int r = i / tile_width, c = i % tile_width;
      tile[c * stride + r] = image[(top + r) * width + left + c];
    }
  } else {
#pragma unroll 4
    for (int i = thread; i < tile_height * tile_width; i += kUnrolledThreads) {
      const int r = i / tile_width, c = i % tile_width, iy = top + r, ix = left + c;
      tile[c * stride + r] = (iy >= 0 && iy < height && ix >= 0 && ix < width) ? image[iy * width + ix] : 0.0f;
    }
  }
  __syncthreads();  // the whole tile is in before anyone reads it

  float sum[kUnrolledStrip] = {};
  const float* strip = tile + threadIdx.x * stride + threadIdx.y * kUnrolledStrip;  // this thread's first pixel
  for (int pass = 0; pass < passes; ++pass)
#pragma unroll(kColumns > 0 ? kColumns : 1)
    for (int b = 0; b < columns; ++b) {
      const float* weights = unrolled_weights + (pass * columns + b) * R;
      const float* column = strip + b * stride + pass * R;  // 16-byte aligned: R is 16 when passes > 1
      float pixels[kPixels];
#pragma unroll
      for (int v = 0; v < kPixels / 4; ++v) {
        const float4 four = reinterpret_cast<const float4*>(column)[v];
        pixels[4 * v] = four.x, pixels[4 * v + 1] = four.y, pixels[4 * v + 2] = four.z, pixels[4 * v + 3] = four.w;
      }
#pragma unroll
      for (int a = 0; a < R; ++a)
#pragma unroll
        for (int p = 0; p < kUnrolledStrip; ++p) sum[p] = fmaf(weights[a], pixels[p + a], sum[p]);
    }

  const int x = x0 + threadIdx.x;
#pragma unroll
  for (int p = 0; p < kUnrolledStrip; ++p) {
    const int y = y0 + threadIdx.y * kUnrolledStrip + p;
    if (y < out_height && x < out_width) output[y * out_width + x] = sum[p];  // edge blocks reach past the output
  }
}
