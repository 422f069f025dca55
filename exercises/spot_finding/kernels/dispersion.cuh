#pragma once
// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// DIALS' dispersion threshold on the GPU, one block per 32 × 32 tile of
// output pixels of one frame.
//
// The launch (given, in launch_dispersion_mask): blocks of kTileWidth ×
// kBlockRows = 32 × 8 threads, so each thread has kTileHeight / kBlockRows
// = 4 output pixels of its tile; grid (tiles across, tiles down, frames),
// blockIdx.z the frame. Tiles at the right and bottom edge reach past the
// frame. Each block has dispersion_shared_bytes(k) bytes of dynamic shared
// memory.
//
// image, mask, signal: frames of height × width, row-major. A pixel's window
// is clipped to its frame, and only its valid pixels (mask 1) count:
// m = how many, x = Σv, y = Σv², exact integers. signal = 1 where the pixel
// is valid and signal_test holds, else 0.

// Until this #define (two lines) is deleted, the cuda rung reports "not
// implemented": delete it when your kernel is written, then rebuild.
#define LADDER_TODO_CUDA_KERNEL \
  "cuda: write the kernel in exercises/spot_finding/kernels/dispersion.cuh, then delete its LADDER_TODO_CUDA_KERNEL #define and rebuild"
#include <cstddef>
// ==== end
#include <cstdint>

#include "bench/problems/spot_finding/spot_finding.hpp"

// ==== exercise only
namespace {  // internal: the solution's kernel of the same name is linked into ladder too
// ==== end

constexpr int kTileWidth = 32;  // one warp across the tile
constexpr int kTileHeight = 32;
constexpr int kBlockRows = 8;                             // warps per block
constexpr int kBlockThreads = kTileWidth * kBlockRows;

// ==== exercise only
// The dynamic shared memory a block gets at half-size k. TODO: this is the
// tile and its halo at one uint32 a pixel; add whatever else your kernel
// keeps in shared memory (cuda.cu refuses more than a block may use: 48 KB
// on most GPUs without opting in, and k goes up to 15).
// ==== end
__host__ __device__ constexpr std::size_t dispersion_shared_bytes(int k) {
  const std::size_t rows = kTileHeight + 2 * k, columns = kTileWidth + 2 * k;
  // ==== exercise only
  return rows * columns * sizeof(std::uint32_t);
  // ==== end
}

// ==== exercise only
// Given: spot_finding.hpp's dispersion_test, term by term in the same order,
// so that the mask is DIALS' bit for bit. root_full = sqrt(2 (m - 1)) of a
// full window comes from the host (its sqrt rounds as the device's does),
// and d's root is taken only where a > c and b > 0 (d >= 0): same bits.
// ==== end
__device__ __forceinline__ bool signal_test(std::uint32_t m, std::uint64_t x, std::uint64_t y, std::uint32_t v,
                                            const ladder::spot_finding::Settings& s, double root_full) {
  if (m < s.min_count || !(v > s.threshold)) return false;
  const double dm = m, dx = static_cast<double>(x), dy = static_cast<double>(y);
  const double a = dm * dy - dx * dx - dx * (dm - 1);
  const double b = dm * v - dx;
  const std::uint32_t full = (2 * s.kernel_size + 1) * (2 * s.kernel_size + 1);
  const double root = m == full ? root_full : sqrt(2 * (dm - 1));
  const double c = dx * s.sigma_b * root;
  if (!(a > c && b > 0)) return false;
  const double d = s.sigma_s * sqrt(dx * dm);
  return b > d;
}

// kFixedK > 0 compiles the kernel for that half-size (the window loops then
// unroll, as the OpenCL rung's -DRADIUS does); 0 reads it from s.
template <int kFixedK>
__global__ void __launch_bounds__(kBlockThreads)
    dispersion_mask(const std::uint16_t* __restrict__ image, const std::uint8_t* __restrict__ mask,
                    std::uint8_t* __restrict__ signal, int height, int width, ladder::spot_finding::Settings s,
                    double root_full) {
  // ==== yours
  extern __shared__ std::uint64_t shared[];  // dispersion_shared_bytes(k), 8-byte aligned
  // TODO: the half-size is k = kFixedK > 0 ? kFixedK : s.kernel_size.
  // (1) The block loads the (32 + 2k) × (32 + 2k) pixels its tile's windows
  // reach into shared memory, all threads together (outside the frame
  // counts as masked: the only bounds checks); (2) the window sums of each
  // output pixel from shared memory; (3) signal_test, and the write, if the
  // pixel lies inside the frame. Which pixels does each thread load, so
  // that a warp reads neighbouring addresses? What must every thread wait
  // for, and when? Can you sum a window in fewer than (2k+1)² additions?
  // ==== end
}

// ==== exercise only
// One launch over the stack (grid: tiles × frames). DIALS' default
// half-size, 3, runs the kernel compiled for it; other sizes the general one.
inline void launch_dispersion_mask(dim3 grid, std::size_t shared_bytes, cudaStream_t stream,
                                   const std::uint16_t* image, const std::uint8_t* mask, std::uint8_t* signal,
                                   int height, int width, const ladder::spot_finding::Settings& s, double root_full) {
  const dim3 block(kTileWidth, kBlockRows);
  if (s.kernel_size == 3)
    dispersion_mask<3><<<grid, block, shared_bytes, stream>>>(image, mask, signal, height, width, s, root_full);
  else
    dispersion_mask<0><<<grid, block, shared_bytes, stream>>>(image, mask, signal, height, width, s, root_full);
}
// ==== end

}  // namespace
