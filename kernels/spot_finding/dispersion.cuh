#pragma once
// DIALS' dispersion threshold on the GPU, one block per 32 × 32 tile of
// output pixels of one frame (blockIdx.z is the frame). The window sums are
// box sums, computed in shared memory in three steps:
//
//   1. the block loads its tile plus a k-pixel halo, (32+2k)², every thread
//      a few pixels (a cooperative load: one coalesced pass, not one thread
//      fetching the whole tile while the others wait);
//   2. horizontal sums: for every halo row and output column, the sums of
//      the 2k+1 pixels across;
//   3. vertical sums of 2k+1 of those, slid down 4 consecutive rows per
//      thread (one row sum in, one out), and DIALS' test for each pixel.
//
// Separable sums: about 2k+1 + 2 additions a pixel instead of (2k+1)²,
// exact in integers (count, Σv: 32 bits; Σv²: 64 bits).
#include <cmath>
#include <cstdint>

#include "bench/problems/spot_finding/spot_finding.hpp"
#include "ladder/ceil_div.hpp"

// Included by the cuda and cuda_streams rungs: each gets its own copy.
namespace {

constexpr int kTileWidth = 32;  // one warp across the tile
constexpr int kTileHeight = 32;
constexpr int kBlockRows = 8;                             // warps per block
constexpr int kRowsPerThread = kTileHeight / kBlockRows;  // consecutive output rows, summed by sliding
constexpr int kBlockThreads = kTileWidth * kBlockRows;

// A loaded pixel: bit 16 says valid (in the frame and not masked), the low
// 16 bits hold its value, or 0 when not valid (it adds nothing to the sums).
constexpr std::uint32_t kValidBit = 1u << 16;

// Shared memory for half-size k (at most 47 KB at k = 15, under the 48 KB a
// block may use without opting in).
__host__ __device__ constexpr std::size_t dispersion_shared_bytes(int k) {
  const std::size_t rows = kTileHeight + 2 * k, columns = kTileWidth + 2 * k;
  return rows * kTileWidth * (sizeof(std::uint64_t) + 2 * sizeof(std::uint32_t)) +
         rows * columns * sizeof(std::uint32_t);
}

// spot_finding.hpp's dispersion_test, term by term in the same order: every
// term of a and b is an exact integer in double, c and d are products of
// correctly rounded square roots, so the device decides exactly as DIALS
// does (fused multiply-adds cannot change exact terms). Two square roots
// are mostly avoided, to the same bit:
//  - root_full = sqrt(2 (m - 1)) for a full window, computed once on the
//    host (its sqrt rounds correctly too): most pixels have a full window;
//  - d's root is taken only where a > c and b > 0 (d >= 0), which is rare.
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

// image, mask, signal: frames of height × width, blockIdx.z the frame.
// kFixedK > 0 compiles the kernel for that half-size (the window loops then
// unroll, as the OpenCL rung's -DRADIUS does); 0 reads it from s.
template <int kFixedK>
__global__ void __launch_bounds__(kBlockThreads)
    dispersion_mask(const std::uint16_t* __restrict__ image, const std::uint8_t* __restrict__ mask,
                    std::uint8_t* __restrict__ signal, int height, int width, ladder::spot_finding::Settings s,
                    double root_full) {
  extern __shared__ std::uint64_t shared[];  // 8-byte aligned: the 64-bit sums come first
  const int k = kFixedK > 0 ? kFixedK : s.kernel_size, rows = kTileHeight + 2 * k, columns = kTileWidth + 2 * k;
  std::uint64_t* row_y = shared;                                                       // [rows][kTileWidth]
  std::uint32_t* row_x = reinterpret_cast<std::uint32_t*>(row_y + rows * kTileWidth);  // [rows][kTileWidth]
  std::uint32_t* row_m = row_x + rows * kTileWidth;                                    // [rows][kTileWidth]
  std::uint32_t* pixels = row_m + rows * kTileWidth;                                   // [rows][columns]

  const std::size_t frame = static_cast<std::size_t>(blockIdx.z) * height * width;
  const int x0 = blockIdx.x * kTileWidth, y0 = blockIdx.y * kTileHeight;
  const int tx = threadIdx.x, ty = threadIdx.y;

  // 1. The tile and its halo, each warp a row at a time; outside the frame
  //    counts as masked.
  for (int r = ty; r < rows; r += kBlockRows)
    for (int c = tx; c < columns; c += kTileWidth) {
      const int gy = y0 - k + r, gx = x0 - k + c;
      std::uint32_t p = 0;
      if (gy >= 0 && gy < height && gx >= 0 && gx < width) {
        const std::size_t g = frame + static_cast<std::size_t>(gy) * width + gx;
        if (mask[g]) p = kValidBit | image[g];
      }
      pixels[r * columns + c] = p;
    }
  __syncthreads();  // the whole halo loaded before anyone sums across it

  // 2. Across: the 2k + 1 pixels centred on each output column, every row.
  for (int r = ty; r < rows; r += kBlockRows) {
    const std::uint32_t* p = pixels + r * columns + tx;
    std::uint32_t m = 0, x = 0;
    std::uint64_t y = 0;
    for (int d = 0; d <= 2 * k; ++d) {
      const std::uint32_t v = p[d] & 0xFFFFu;
      m += p[d] >> 16, x += v, y += static_cast<std::uint64_t>(v * v);  // v² < 2^32
    }
    row_m[r * kTileWidth + tx] = m, row_x[r * kTileWidth + tx] = x, row_y[r * kTileWidth + tx] = y;
  }
  __syncthreads();  // every row sum ready before the columns are summed

  // 3. Down: each thread slides a window of 2k + 1 row sums over its
  //    kRowsPerThread consecutive output rows (one row in, one out), and
  //    tests each pixel. Output row r's window is halo rows r to r + 2k.
  const int first = ty * kRowsPerThread, gx = x0 + tx;
  std::uint32_t m = 0, x = 0;
  std::uint64_t y = 0;
  for (int d = 0; d <= 2 * k; ++d) {
    const int i = (first + d) * kTileWidth + tx;
    m += row_m[i], x += row_x[i], y += row_y[i];
  }
  for (int r = first; r < first + kRowsPerThread; ++r) {
    if (r > first) {
      const int in = (r + 2 * k) * kTileWidth + tx, out = (r - 1) * kTileWidth + tx;
      m += row_m[in] - row_m[out], x += row_x[in] - row_x[out],
          y += row_y[in] - row_y[out];  // exact: unsigned wrap cancels
    }
    const int gy = y0 + r;
    if (gx >= width || gy >= height) continue;
    const std::uint32_t centre = pixels[(r + k) * columns + tx + k];
    signal[frame + static_cast<std::size_t>(gy) * width + gx] =
        (centre & kValidBit) && signal_test(m, x, y, centre & 0xFFFFu, s, root_full);
  }
}

// How the kernel runs over frames of a stack, worked out once in prepare():
// a block per tile, a grid layer per frame (validate() refuses more than
// 65535 frames), the shared memory for the half-size, and sqrt(2 (m - 1))
// of a full window, computed on the host as the device's sqrt rounds it.
struct DispersionTiles {
  unsigned across = 0, down = 0;
  std::size_t shared_bytes = 0;
  double root_full = 0;
};

inline DispersionTiles plan_dispersion_tiles(const ladder::spot_finding::Settings& s,
                                             const ladder::spot_finding::Stack& stack) {
  return {ladder::ceil_div(unsigned(stack.width), unsigned(kTileWidth)),
          ladder::ceil_div(unsigned(stack.height), unsigned(kTileHeight)), dispersion_shared_bytes(s.kernel_size),
          std::sqrt(2 * (static_cast<double>(s.window()) - 1))};
}

// One launch over `frames` frames (of height × width) from `image`, `mask`
// and `signal` on. DIALS' default half-size, 3, runs the kernel compiled
// for it; other sizes the general one.
inline void launch_dispersion_mask(const DispersionTiles& tiles, std::size_t frames, cudaStream_t stream,
                                   const std::uint16_t* image, const std::uint8_t* mask, std::uint8_t* signal,
                                   int height, int width, const ladder::spot_finding::Settings& s) {
  const dim3 grid(tiles.across, tiles.down, unsigned(frames)), block(kTileWidth, kBlockRows);
  if (s.kernel_size == 3)
    dispersion_mask<3>
        <<<grid, block, tiles.shared_bytes, stream>>>(image, mask, signal, height, width, s, tiles.root_full);
  else
    dispersion_mask<0>
        <<<grid, block, tiles.shared_bytes, stream>>>(image, mask, signal, height, width, s, tiles.root_full);
}

}  // namespace
