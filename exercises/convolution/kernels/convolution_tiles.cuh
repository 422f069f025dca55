#pragma once
// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// The full 2-D convolution, zero outside the image:
//   output[y][x] = sum over (i, j) of weights[i][j] * image[y - i][x - j],
// image[r][c] = 0 outside 0 <= r < height, 0 <= c < width, for 0 <= y <
// out_height = height + rows - 1 and 0 <= x < out_width = width + columns - 1.
// The weights are rows × columns, row-major, in convolution_weights.
//
// The launch: blocks of kConvTile × kConvTile threads, a 2-D grid of them
// over the output, one output per thread; blocks at the right and bottom
// edge reach past the output. Each block has a dynamic shared-memory array
// of (kConvTile + rows - 1) × (kConvTile + columns - 1) floats.

// Until this #define (two lines) is deleted, the cuda rung reports "not
// implemented": delete it when your kernel is written, then rebuild.
#define LADDER_TODO_CUDA_KERNEL \
  "cuda: write the kernel in exercises/convolution/kernels/convolution_tiles.cuh, then delete its LADDER_TODO_CUDA_KERNEL #define and rebuild"

namespace {  // internal: the solution's kernel of the same name is linked into ladder too

constexpr int kConvTile = 16;
constexpr int kConvMaxWeights = 8192;  // 32 KiB of the 64 KiB of constant memory

// The weights, copied here by the host (cudaMemcpyToSymbolAsync).
__constant__ float convolution_weights[kConvMaxWeights];

__global__ void convolve_tiles(const float* __restrict__ image, int height, int width, int rows, int columns,
                               float* __restrict__ output, int out_height, int out_width) {
  // ==== end
  // ==== yours
  extern __shared__ float tile[];  // (kConvTile + rows - 1) × (kConvTile + columns - 1)
  // TODO: (1) the block copies the image pixels its outputs read into
  // tile (zeros outside the image: the only bounds checks); (2) each
  // thread sums its output from tile; (3) writes it, if it lies inside the
  // output. There are more pixels to load than threads. What must every
  // thread wait for between (1) and (2)?
  // ==== end
}

// ==== exercise only
}  // namespace
// ==== end
