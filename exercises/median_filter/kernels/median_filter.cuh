#pragma once
// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// The k×k median filter of a stack of frames on the GPU, one block per
// kMedianTile × kMedianTile block of output pixels of one frame:
//   out[f][y][x] = the middle (the (k*k/2)-th, from 0) of the k*k values
//   in[f][reflect(y + i)][reflect(x + j)], -r <= i, j <= r, r = k / 2,
// with scipy's mode='reflect' at the frame's edges (reflect_index, given).
// In remove_outlier mode the pixel keeps its value unless it differs from
// the median by more than diff in the chosen direction (choose_output,
// given). A median is one of the input values: the result is exact.
//
// The launch (given, in launch_median_tiles): blocks of kMedianTile ×
// kMedianTile threads, one output pixel each; grid (tiles across, tiles
// down, frames), blockIdx.z the frame. Tiles at the right and bottom edge
// reach past the frame. Each block has median_shared_bytes(k, sizeof(T))
// bytes of dynamic shared memory: the tile and its halo, one T a pixel.
// T is float, double or std::uint16_t.

// Until this #define (two lines) is deleted, the cuda rung reports "not
// implemented": delete it when your kernel is written, then rebuild.
#define LADDER_TODO_CUDA_KERNEL \
  "cuda: write the kernel in exercises/median_filter/kernels/median_filter.cuh, then delete its LADDER_TODO_CUDA_KERNEL #define and rebuild"
// ==== end
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

// ==== exercise only
namespace {  // internal: the solution's kernel header is linked into ladder too

constexpr int kMedianTile = 16;
// ==== end

struct MedianSettings {
  int size;            // k
  int remove_outlier;  // 0: median everywhere
  int bright;          // remove_outlier: 1 bright, 0 dark
  double diff;
};

// ==== exercise only
__host__ __device__ constexpr std::size_t median_shared_bytes(int size, std::size_t pixel_bytes) {
  const std::size_t side = kMedianTile + 2 * std::size_t(size / 2);
  return side * side * pixel_bytes;
}
// ==== end

// scipy's 'reflect' (d c b a | a b c d | d c b a), repeating for windows wider than the frame.
__device__ __forceinline__ int reflect_index(int i, int n) {
  if (i >= 0 && i < n) return i;
  int j = i % (2 * n);
  if (j < 0) j += 2 * n;
  return j < n ? j : 2 * n - 1 - j;
}

// ==== exercise only
// Given: what is written for a pixel whose window's median is `median`.
template <class T>
__device__ __forceinline__ T choose_output(T pixel, T median, const MedianSettings& s) {
  // ==== end
  if (!s.remove_outlier) return median;
  const double difference = s.bright ? double(pixel) - double(median) : double(median) - double(pixel);
  return difference > s.diff ? median : pixel;
}

// ==== exercise only
// kFixedSize > 0 compiles the kernel for that k (3, 5 or 7), so that every
// loop over the window has a bound known to the compiler, as the OpenCL
// rung's -DK does; 0 reads k from s.size.
template <class T, int kFixedSize>
__global__ void median_tiles(const T* __restrict__ in, T* __restrict__ out, int height, int width,
                             MedianSettings s) {
  // ==== end
  // ==== yours
  extern __shared__ __align__(16) unsigned char median_tile_bytes[];  // the tile: use it as T
  // TODO: k = kFixedSize > 0 ? kFixedSize : s.size. (1) The block copies
  // the (kMedianTile + k - 1)² pixels its windows read into shared memory,
  // reflected at the frame's edges (the only place that deals with
  // borders); (2) each thread finds its window's median there; (3) writes
  // choose_output(...), if its pixel lies inside the frame. What must every
  // thread wait for between (1) and (2)? An array a thread indexes with
  // values known only at run time does not stay in registers: how few
  // values must it hold at once to be sure of the median, and can every
  // index be a compile-time constant?
  // ==== end
}

// ==== exercise only
// One launch over the stack; k = 3, 5 and 7 run kernels compiled for them.
template <class T>
void launch_median_tiles(dim3 grid, std::size_t shared_bytes, cudaStream_t stream, const T* in, T* out, int height,
                         int width, const MedianSettings& s) {
  const dim3 block(kMedianTile, kMedianTile);
  switch (s.size) {
    case 3: median_tiles<T, 3><<<grid, block, shared_bytes, stream>>>(in, out, height, width, s); break;
    case 5: median_tiles<T, 5><<<grid, block, shared_bytes, stream>>>(in, out, height, width, s); break;
    case 7: median_tiles<T, 7><<<grid, block, shared_bytes, stream>>>(in, out, height, width, s); break;
    default: median_tiles<T, 0><<<grid, block, shared_bytes, stream>>>(in, out, height, width, s);
  }
}
// ==== end

// ==== exercise only
}  // namespace
// ==== end
