#pragma once
// DIALS' dispersion threshold with the window slid through registers, for
// half-sizes k = 1 ... 3 (DIALS' default is 3). The tile kernel
// (dispersion.cuh) writes every pixel to shared memory, sums across, writes
// the row sums back, and reads them again to sum down. Here each pixel is
// loaded once, into a register, and never goes through shared memory:
//
//   - A warp (a block) owns a strip 128 columns wide (four columns a lane)
//     and a run of output rows, and walks down it one row at a time.
//   - Across: a lane takes its 2k neighbours' pixels from the lanes beside it
//     by warp shuffles, and slides the row's window sum across its four
//     columns. The warp is a ring, so a shuffle past lane 31 lands on lane
//     0: the lanes at each end also load the four columns just past the
//     other end of the strip, and hand those over instead of their own
//     where a shuffle wraps.
//   - Down: each lane keeps the last 2k + 1 row sums of its four columns
//     (the row loop is unrolled by 2k + 1, so the ring is indexed at
//     compile time), adds the new row and subtracts the row 2k + 1 back.
//     Counts and Σv stay in registers, Σv² in shared memory.
//
// A pixel is packed into one 32-bit word, count in bits 26-31 and value in
// bits 0-25, so one addition sums the count m and Σv together: a 7 × 7
// window holds at most 49 < 64 pixels of at most 65535, Σv < 2^22. That is
// why this kernel stops at k = 3; Σv² needs 64 bits.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "bench/problems/spot_finding/spot_finding.hpp"
#include "ladder/cuda.cuh"

// Included by the cuda_sliding rung only.
namespace {

constexpr int kSlidingLanes = 32;
constexpr int kSlidingMaxK = 3;

constexpr int kCountShift = 26;
constexpr std::uint32_t kSumMask = (1u << kCountShift) - 1;
constexpr std::uint32_t kOnePixel = 1u << kCountShift;  // a valid pixel counts 1

// What DIALS' test needs, with its values prepared on the host: v_min, the
// smallest integer value above `threshold` (so the comparison is exact in
// integers; threshold >= 0, so v_min >= 1), and root[m] = sqrt(2 (m - 1))
// for every count m a window can hold, so the device takes no square root
// for c (the host's sqrt rounds correctly, as the device's does: the same
// bits).
struct SlidingTest {
  std::uint32_t min_count = 2;
  std::uint32_t v_min = 1;
  double sigma_b = 6, sigma_s = 3;
  double root[(2 * kSlidingMaxK + 1) * (2 * kSlidingMaxK + 1) + 1] = {};
};

inline SlidingTest sliding_test_of(const ladder::spot_finding::Settings& s) {
  SlidingTest t;
  t.min_count = s.min_count;
  t.v_min = 1;
  while (t.v_min <= 65535 && !(double(t.v_min) > s.threshold)) ++t.v_min;  // 65536: nothing passes
  t.sigma_b = s.sigma_b, t.sigma_s = s.sigma_s;
  for (int m = 1; m < int(sizeof(t.root) / sizeof(double)); ++m) t.root[m] = std::sqrt(2 * (double(m) - 1));
  return t;
}

// DIALS' test (spot_finding.hpp's dispersion_test) on a window's packed sum
// and Σv², for a centre pixel of value v (0 where masked: v >= v_min >= 1
// then fails, as a masked pixel must). No branch until the rare pixel that
// passes the first five comparisons. a and b are exact integers: in DIALS'
// double arithmetic every term of them is an integer below 2^53, so double
// gives these same values. c and d are DIALS' expressions, in its order.
// b > 0 is tested beside a > c: the test needs it (d >= 0), and it is cheap.
__device__ __forceinline__ bool sliding_signal(std::uint32_t sums, std::uint64_t y, std::uint32_t v,
                                               const SlidingTest& t, const double* root) {
  const std::uint32_t m = sums >> kCountShift, x = sums & kSumMask;
  const int b = int(m * v) - int(x);  // |b| < 2^22
  const long long a = static_cast<long long>(m * y - std::uint64_t{x} * (x + m - 1));  // m y - x² - x (m - 1)
  const double dx = x;
  const double c = dx * t.sigma_b * root[m];
  if (!(m >= t.min_count && v >= t.v_min && b > 0 && double(a) > c)) return false;
  const double d = t.sigma_s * sqrt(dx * double(m));
  return double(b) > d;
}

__device__ __forceinline__ std::uint32_t squared(std::uint32_t p) {
  const std::uint32_t v = p & 0xFFFFu;
  return v * v;  // < 2^32
}

// The columns a lane owns: four, so that the 2k neighbours a window
// reaches across, the loads and the squares are shared by four outputs.
constexpr int kLaneColumns = 4;
constexpr int kSlidingColumns = kLaneColumns * kSlidingLanes;  // a warp's strip

// A lane's columns of one row as loaded: values two to a word, and mask
// bytes (0 or 1; the problem refuses any other). What lies outside the
// frame reads as masked.
struct RawColumns {
  std::uint32_t values[kLaneColumns / 2] = {};  // column x + c in bits 16 (c % 2) of word c / 2
  std::uint32_t valid = 0;                      // column x + c's mask byte in bits 8c
};

// The columns at offset `at` of image and mask; inside[c]: whether column
// x + c is in the frame. kWhole: the width is a multiple of kLaneColumns,
// so a lane's columns are one 8-byte load of values and one 4-byte load of
// mask (all inside or all outside).
template <bool kWhole>
__device__ __forceinline__ RawColumns fetch_columns(const std::uint16_t* __restrict__ image,
                                                    const std::uint8_t* __restrict__ mask, int at,
                                                    const bool (&inside)[kLaneColumns]) {
  RawColumns raw;
  if (kWhole) {
    if (inside[0]) {
      const uint2 values = *reinterpret_cast<const uint2*>(image + at);
      raw.values[0] = values.x, raw.values[1] = values.y;
      raw.valid = *reinterpret_cast<const std::uint32_t*>(mask + at);
    }
  } else {
#pragma unroll
    for (int c = 0; c < kLaneColumns; ++c)
      if (inside[c]) {
        raw.values[c / 2] |= std::uint32_t{image[at + c]} << (16 * (c % 2));
        raw.valid |= std::uint32_t{mask[at + c]} << (8 * c);
      }
  }
  return raw;
}

// The value of column x + c (whether or not it is masked).
__device__ __forceinline__ std::uint32_t value_of(const RawColumns& raw, int c) {
  return (raw.values[c / 2] >> (16 * (c % 2))) & 0xFFFFu;
}

// The packed pixel (count 1 and value, or 0 where masked) of column x + c.
__device__ __forceinline__ std::uint32_t packed(const RawColumns& raw, int c) {
  return (raw.valid >> (8 * c)) & 0xFFu ? kOnePixel | value_of(raw, c) : 0u;
}

// image, mask, signal: frames of height × width (the whole stack under
// 2^31 pixels, which the problem checks, so offsets are int). Grid: (strips
// of kSlidingColumns columns, runs of `rows` output rows, frames); block:
// one warp. rows + 2K must be a multiple of 2K + 1 (whole turns of the
// unrolled loop).
template <int K, bool kWhole>
__global__ void __launch_bounds__(kSlidingLanes, 24)
    dispersion_sliding(const std::uint16_t* __restrict__ image, const std::uint8_t* __restrict__ mask,
                       std::uint8_t* __restrict__ signal, int height, int width, int rows, SlidingTest test) {
  static_assert(K >= 1 && K <= kSlidingMaxK, "the packed count holds at most 63 pixels: k <= 3");
  constexpr int kWindow = 2 * K + 1;
  constexpr int kReach = (K + kLaneColumns - 1) / kLaneColumns;  // lanes a shuffle reaches to either side
  constexpr int kAhead = 1;  // rows loaded ahead of the one summed: loads in flight while it works

  // root[m] for every count, in shared memory: lanes index it by their own m.
  __shared__ double root[kWindow * kWindow + 1];
  for (int m = threadIdx.x; m <= kWindow * kWindow; m += kSlidingLanes) root[m] = test.root[m];
  __syncwarp();

  const int lane = threadIdx.x;
  const int x = blockIdx.x * kSlidingColumns + kLaneColumns * lane;  // this lane's columns: x ... x + 3
  bool own_inside[kLaneColumns];
#pragma unroll
  for (int c = 0; c < kLaneColumns; ++c) own_inside[c] = x + c < width;
  // The columns this lane hands over where a shuffle wraps: the end lanes
  // hold the columns just past the other end of the strip (other lanes load
  // nothing).
  const bool holds_halo = lane < kReach || lane >= kSlidingLanes - kReach;
  const int halo_x = lane < kSlidingLanes / 2 ? x + kSlidingColumns : x - kSlidingColumns;
  bool halo_inside[kLaneColumns];
#pragma unroll
  for (int c = 0; c < kLaneColumns; ++c) halo_inside[c] = holds_halo && halo_x + c >= 0 && halo_x + c < width;

  // Input row first_row - K + i (i = 0, 1, ...) starts at offset frame_at +
  // row * width; the window of output row first_row + i - 2K is complete
  // once input row i is in.
  const int first_row = blockIdx.y * rows;
  const int frame_at = int(blockIdx.z) * height * width;
  auto fetch_row = [&](int row, RawColumns& own, RawColumns& halo) {
    const bool in_frame = row >= 0 && row < height;
    const int at = frame_at + row * width;
    bool own_in[kLaneColumns], halo_in[kLaneColumns];
#pragma unroll
    for (int c = 0; c < kLaneColumns; ++c)
      own_in[c] = in_frame && own_inside[c], halo_in[c] = in_frame && halo_inside[c];
    own = fetch_columns<kWhole>(image, mask, at + x, own_in);
    halo = fetch_columns<kWhole>(image, mask, at + halo_x, halo_in);
  };

  // The ring of the last 2K + 1 rows' sums: counts and Σv in registers; the
  // Σv², 64 bits each, in shared memory (in registers they would leave
  // room for fewer warps), each lane in its own slots.
  std::uint32_t ring_sums[kWindow][kLaneColumns] = {}, ring_centres[kWindow][kLaneColumns / 2] = {};
  __shared__ ulonglong2 ring_squares[kWindow][kLaneColumns / 2][kSlidingLanes];
#pragma unroll
  for (int j = 0; j < kWindow; ++j)
#pragma unroll
    for (int h = 0; h < kLaneColumns / 2; ++h) ring_squares[j][h][lane] = make_ulonglong2(0, 0);
  std::uint32_t sums[kLaneColumns] = {};  // the window's packed count and Σv, per column
  std::uint64_t squares[kLaneColumns] = {};
  RawColumns own_ahead[kAhead], halo_ahead[kAhead];
#pragma unroll
  for (int a = 0; a < kAhead; ++a) fetch_row(first_row - K + a, own_ahead[a], halo_ahead[a]);

  for (int turn = 0; turn < rows + 2 * K; turn += kWindow) {
#pragma unroll
    for (int j = 0; j < kWindow; ++j) {
      const int i = turn + j, row = first_row - K + i;
      const RawColumns own_raw = own_ahead[0], halo_raw = halo_ahead[0];
#pragma unroll
      for (int a = 0; a + 1 < kAhead; ++a) own_ahead[a] = own_ahead[a + 1], halo_ahead[a] = halo_ahead[a + 1];
      fetch_row(row + kAhead, own_ahead[kAhead - 1], halo_ahead[kAhead - 1]);
      std::uint32_t own[kLaneColumns], halo[kLaneColumns];
#pragma unroll
      for (int c = 0; c < kLaneColumns; ++c) own[c] = packed(own_raw, c), halo[c] = packed(halo_raw, c);

      // across[d + K]: the packed pixel of column x + d, d = -K ... K + 3.
      // Column x + d sits in lane lane + floor(d / 4), as its (d mod 4)th.
      constexpr int kAcross = kLaneColumns + 2 * K;
      std::uint32_t across[kAcross];
#pragma unroll
      for (int d = -K; d < kLaneColumns + K; ++d) {
        if (d >= 0 && d < kLaneColumns) {
          across[d + K] = own[d];
          continue;
        }
        const int shift = d >= 0 ? d / kLaneColumns : -((kLaneColumns - 1 - d) / kLaneColumns);  // floor(d / 4)
        const int column = d - shift * kLaneColumns;
        const bool wraps = shift < 0 ? lane >= kSlidingLanes + shift : lane < shift;
        const std::uint32_t mine = wraps ? halo[column] : own[column];
        across[d + K] = __shfl_sync(0xFFFFFFFFu, mine, (lane + shift) & (kSlidingLanes - 1));
      }

      // The row's sums over 2K + 1 columns for column x, then slid one
      // column at a time to x + 3: in with the column on the right, out
      // with the one 2K + 1 to its left.
      std::uint32_t row_sums[kLaneColumns] = {};
      std::uint64_t row_squares[kLaneColumns] = {};
#pragma unroll
      for (int c = 0; c < kWindow; ++c) row_sums[0] += across[c], row_squares[0] += squared(across[c]);
#pragma unroll
      for (int c = 1; c < kLaneColumns; ++c) {
        row_sums[c] = row_sums[c - 1] - across[c - 1] + across[c + 2 * K];
        row_squares[c] = row_squares[c - 1] - squared(across[c - 1]) + squared(across[c + 2 * K]);
      }

      // Down: in with this row, out with the row 2K + 1 back (exact:
      // unsigned wrap-around cancels). The centres keep the values (0 where
      // masked) two to a word.
#pragma unroll
      for (int h = 0; h < kLaneColumns / 2; ++h) {
        const ulonglong2 leaving = ring_squares[j][h][lane];
        squares[2 * h] += row_squares[2 * h] - leaving.x;
        squares[2 * h + 1] += row_squares[2 * h + 1] - leaving.y;
        ring_squares[j][h][lane] = make_ulonglong2(row_squares[2 * h], row_squares[2 * h + 1]);
        ring_centres[j][h] = (own[2 * h] & 0xFFFFu) | (own[2 * h + 1] << 16);
      }
#pragma unroll
      for (int c = 0; c < kLaneColumns; ++c) {
        sums[c] += row_sums[c] - ring_sums[j][c];
        ring_sums[j][c] = row_sums[c];
      }

      const int out_row = row - K;
      if (i < 2 * K || out_row >= height || out_row >= first_row + rows) continue;
      const int centre_slot = (j + kWindow - K) % kWindow;  // input row out_row
      std::uint32_t signals = 0;                            // column x + c's 0 or 1 in byte c
#pragma unroll
      for (int c = 0; c < kLaneColumns; ++c) {
        const std::uint32_t centre = (ring_centres[centre_slot][c / 2] >> (16 * (c % 2))) & 0xFFFFu;
        signals |= std::uint32_t{sliding_signal(sums[c], squares[c], centre, test, root)} << (8 * c);
      }
      const int at = frame_at + out_row * width + x;
      if (kWhole) {
        if (own_inside[0]) *reinterpret_cast<std::uint32_t*>(signal + at) = signals;
      } else {
#pragma unroll
        for (int c = 0; c < kLaneColumns; ++c)
          if (own_inside[c]) signal[at + c] = std::uint8_t(signals >> (8 * c));
      }
    }
  }
}

// The launch for half-size k <= kSlidingMaxK.
//
// A run's length is chosen for the whole grid to fill the GPU evenly. A
// warp reads rows + 2k input rows for `rows` output rows, so long runs waste
// less; but blocks run in waves of (resident blocks per SM) × (SMs), and a
// last wave that is nearly empty costs as much as a full one. So this tries
// runs of 4 to 12 turns and takes the one with the least (input rows per
// warp) × (waves).
struct SlidingLaunch {
  dim3 grid;
  int rows = 0;
};

template <int K>
SlidingLaunch plan_sliding_for(std::size_t frames, std::size_t height, std::size_t width, int resident_blocks) {
  constexpr int kWindow = 2 * K + 1;
  SlidingLaunch best;
  double best_cost = 0;
  for (int turns = 4; turns <= 12; ++turns) {
    const int rows = kWindow * turns - 2 * K;
    const dim3 grid(unsigned((width + kSlidingColumns - 1) / kSlidingColumns), unsigned((height + rows - 1) / rows),
                    unsigned(frames));
    const double blocks = double(grid.x) * grid.y * grid.z;
    const double cost = std::ceil(blocks / resident_blocks) * (rows + 2 * K);
    if (best.rows == 0 || cost < best_cost) best = {grid, rows}, best_cost = cost;
  }
  return best;
}

template <int K, bool kWhole>
SlidingLaunch plan_sliding(std::size_t frames, std::size_t height, std::size_t width) {
  int device = 0, sms = 0, per_sm = 0;
  LADDER_CUDA_CHECK(cudaGetDevice(&device));
  LADDER_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  LADDER_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, dispersion_sliding<K, kWhole>, kSlidingLanes, 0));
  return plan_sliding_for<K>(frames, height, width, std::max(1, sms * per_sm));
}

inline SlidingLaunch plan_dispersion_sliding(int k, std::size_t frames, std::size_t height, std::size_t width) {
  const bool whole = width % kLaneColumns == 0;
  if (k == 1)
    return whole ? plan_sliding<1, true>(frames, height, width) : plan_sliding<1, false>(frames, height, width);
  if (k == 2)
    return whole ? plan_sliding<2, true>(frames, height, width) : plan_sliding<2, false>(frames, height, width);
  return whole ? plan_sliding<3, true>(frames, height, width) : plan_sliding<3, false>(frames, height, width);
}

template <int K>
void launch_sliding_for(const SlidingLaunch& launch, cudaStream_t stream, const std::uint16_t* image,
                        const std::uint8_t* mask, std::uint8_t* signal, int height, int width,
                        const SlidingTest& test) {
  if (width % kLaneColumns == 0)
    dispersion_sliding<K, true>
        <<<launch.grid, kSlidingLanes, 0, stream>>>(image, mask, signal, height, width, launch.rows, test);
  else
    dispersion_sliding<K, false>
        <<<launch.grid, kSlidingLanes, 0, stream>>>(image, mask, signal, height, width, launch.rows, test);
}

inline void launch_dispersion_sliding(int k, const SlidingLaunch& launch, cudaStream_t stream,
                                      const std::uint16_t* image, const std::uint8_t* mask, std::uint8_t* signal,
                                      int height, int width, const SlidingTest& test) {
  if (k == 1) launch_sliding_for<1>(launch, stream, image, mask, signal, height, width, test);
  if (k == 2) launch_sliding_for<2>(launch, stream, image, mask, signal, height, width, test);
  if (k == 3) launch_sliding_for<3>(launch, stream, image, mask, signal, height, width, test);
}

}  // namespace
