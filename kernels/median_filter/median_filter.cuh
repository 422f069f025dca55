#pragma once
// median_filter's CUDA kernels (the cuda and cuda_streams rungs), beside
// median_filter.cl. For k >= 5 a block loads its tile of the frame, with
// the k - 1 halo rows and columns reflected as scipy does, into shared
// memory once; every window read after that is a shared-memory read.
//
// The median is found by forgetful selection (Perrot et al. 2014): keep
// only n/2 + 2 of the n = k² values; drop the smallest and the largest of
// them (neither can be the median), take in the next value, and repeat;
// the last three hold the median. For k = 5 and 7 the buffer is a fixed
// array in registers, every index known at compile time, and each thread
// filters two pixels one above the other: their windows share k(k - 1)
// values, which go in first and are reduced once for both. Larger k (up to
// 15) take the general path, the same selection with the buffer in local
// memory, one pixel at a time.
//
// k = 3 is the classic shortcut and has its own kernel, without shared
// memory: with each row of three sorted (low <= middle <= high), the median
// is the median of the largest low, the middle middle and the smallest high,
// and each sorted row serves the three windows that hold it.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "solutions/median_filter/median_networks.hpp"

namespace ladder {

constexpr int kMedianTileWidth = 32;   // threads in x; outputs per tile row
constexpr int kMedianBlockRows = 8;    // threads in y
constexpr int kMedianTileHeight = 2 * kMedianBlockRows;  // two outputs per thread
constexpr int kMedianLargestSize = 15;
constexpr int kMedianLargestRegisterSize = 7;

struct MedianSettings {
  int size;            // k
  int remove_outlier;  // 0: median everywhere
  int bright;          // remove_outlier: 1 bright, 0 dark
  double diff;
};

// uint16 pixels are compared as 32-bit unsigned ints, the GPU's native width.
template <class T> struct MedianWord { using type = T; };
template <> struct MedianWord<std::uint16_t> { using type = unsigned; };

// scipy's 'reflect' (d c b a | a b c d | d c b a), repeating for windows wider than the frame.
__device__ __forceinline__ int reflect_index(int i, int n) {
  if (i >= 0 && i < n) return i;
  int j = i % (2 * n);
  if (j < 0) j += 2 * n;
  return j < n ? j : 2 * n - 1 - j;
}

template <class V>
__device__ __forceinline__ void order(V& a, V& b) {
  const V low = min(a, b);
  b = max(a, b);
  a = low;
}

// Moves the smallest of buffer[low..high] to buffer[low] and the largest to buffer[high].
template <class V>
__device__ __forceinline__ void extremes_to_ends(V* buffer, int low, int high) {
#pragma unroll
  for (int i = low + 1; i <= high; ++i) order(buffer[low], buffer[i]);
#pragma unroll
  for (int i = low + 1; i < high; ++i) order(buffer[i], buffer[high]);
}

template <class V>
__device__ __forceinline__ V median_of_three(V a, V b, V c) {
  return max(min(a, b), min(max(a, b), c));
}

// remove_outlier: the median only where the pixel is beyond diff from it
// (the difference in float64, as on the host); median mode: the median.
template <class V>
__device__ __forceinline__ V choose_output(V pixel, V median, const MedianSettings& s) {
  if (!s.remove_outlier) return median;
  const double difference = s.bright ? double(pixel) - double(median) : double(median) - double(pixel);
  return difference > s.diff ? median : pixel;
}

// The block's tile: rows [y0 - r, y0 + tile height + r), columns likewise,
// reflected at the frame's edges; every thread loads a share.
template <class T>
__device__ __forceinline__ void load_tile(const T* frame, int height, int width, int radius, T* tile, int pitch,
                                          int rows) {
  const int x0 = int(blockIdx.x) * kMedianTileWidth - radius, y0 = int(blockIdx.y) * kMedianTileHeight - radius;
  for (int i = threadIdx.y; i < rows; i += blockDim.y) {
    const T* source = frame + std::size_t(reflect_index(y0 + i, height)) * width;
    for (int j = threadIdx.x; j < pitch; j += blockDim.x) tile[i * pitch + j] = source[reflect_index(x0 + j, width)];
  }
  __syncthreads();  // the whole tile is in before any window reads it
}

// k = 5, 7: two outputs per thread, rows a and a + 1 of the tile's outputs.
template <class T, int K>
__global__ void median_registers(const T* in, T* out, int height, int width, MedianSettings settings) {
  using V = typename MedianWord<T>::type;
  constexpr int R = K / 2, N = K * K, B = N / 2 + 2;  // B: the forgetful buffer
  constexpr int PITCH = kMedianTileWidth + 2 * R, ROWS = kMedianTileHeight + 2 * R;
  __shared__ T tile[ROWS * PITCH];
  const std::size_t frame_offset = std::size_t(blockIdx.z) * height * width;
  load_tile(in + frame_offset, height, width, R, tile, PITCH, ROWS);

  const int tx = threadIdx.x, a = 2 * threadIdx.y;  // window rows: a .. a+K-1 (top), a+1 .. a+K (bottom)
  const T* column = tile + tx;
  const int x = int(blockIdx.x) * kMedianTileWidth + tx, y = int(blockIdx.y) * kMedianTileHeight + a;
  auto store = [&](int row, V median) {  // output row y + row, if inside the frame
    if (x < width && y + row < height)
      out[frame_offset + std::size_t(y + row) * width + x] =
          T(choose_output(V(column[(a + row + R) * PITCH + R]), median, settings));
  };

  // The K(K-1) values both windows share (tile rows a+1 .. a+K-1) go in first.
  V shared[B];
#pragma unroll
  for (int e = 0; e < B; ++e) shared[e] = column[(a + 1 + e / K) * PITCH + e % K];
#pragma unroll
  for (int e = B; e < K * (K - 1); ++e) {
    extremes_to_ends(shared, e - B, B - 1);  // drop the smallest (low moves up), replace the largest
    shared[B - 1] = column[(a + 1 + e / K) * PITCH + e % K];
  }
  constexpr int S = K * (K - 1) - B;  // steps taken so far: the buffer is shared[S .. B-1]
  V top[B], bottom[B];
#pragma unroll
  for (int i = S; i < B; ++i) top[i] = bottom[i] = shared[i];
  // Then each window's own row: row a for the top, row a+K for the bottom.
#pragma unroll
  for (int j = 0; j < K; ++j) {
    extremes_to_ends(top, S + j, B - 1);
    top[B - 1] = column[a * PITCH + j];
    extremes_to_ends(bottom, S + j, B - 1);
    bottom[B - 1] = column[(a + K) * PITCH + j];
  }
  constexpr int L = S + K;  // three values left: L, L+1, L+2
  store(0, median_of_three(top[L], top[L + 1], top[L + 2]));
  store(1, median_of_three(bottom[L], bottom[L + 1], bottom[L + 2]));
}

// k = 3 without shared memory: each thread walks down a column of
// kMedian3Rows outputs, reading its pixel's row neighbours straight from
// global memory (the L1 cache serves the neighbouring threads' reads); each
// row of three is sorted once and serves the three windows that hold it.
// No tile load and no barrier: 0.96 ms on 64×2048×2048 against 1.68 ms for
// the same shortcut on a shared-memory tile (H100, solutions' README).
constexpr int kMedian3Rows = 8;
template <class T>
__global__ void median3_columns(const T* in, T* out, int height, int width, MedianSettings settings) {
  using V = typename MedianWord<T>::type;
  const std::size_t frame_offset = std::size_t(blockIdx.z) * height * width;
  const T* frame = in + frame_offset;
  const int x = int(blockIdx.x) * kMedianTileWidth + int(threadIdx.x);
  const int y0 = (int(blockIdx.y) * kMedianBlockRows + int(threadIdx.y)) * kMedian3Rows;
  if (x >= width || y0 >= height) return;
  const int left = reflect_index(x - 1, width), right = reflect_index(x + 1, width);
  V low[kMedian3Rows + 2], middle[kMedian3Rows + 2], high[kMedian3Rows + 2], centre[kMedian3Rows + 2];
#pragma unroll
  for (int i = 0; i < kMedian3Rows + 2; ++i) {  // rows y0 - 1 ... y0 + kMedian3Rows
    const T* row = frame + std::size_t(reflect_index(y0 - 1 + i, height)) * width;
    V p = row[left], q = row[x], s = row[right];
    centre[i] = q;
    order(p, q);
    order(q, s);
    order(p, q);
    low[i] = p, middle[i] = q, high[i] = s;
  }
#pragma unroll
  for (int r = 0; r < kMedian3Rows; ++r) {
    if (y0 + r >= height) break;
    const V median = median_of_three(max(max(low[r], low[r + 1]), low[r + 2]),
                                     median_of_three(middle[r], middle[r + 1], middle[r + 2]),
                                     min(min(high[r], high[r + 1]), high[r + 2]));
    out[frame_offset + std::size_t(y0 + r) * width + x] = T(choose_output(centre[r + 1], median, settings));
  }
}

// cuda_network, k = 5 and 7: the serial rung's selection network on the
// GPU, shared by two windows. The block's tile is loaded as above; then
// every column of k values under an output row is sorted once, into shared
// memory, and serves the k windows that hold it. Each thread then filters
// two windows side by side, which share k - 1 of their k sorted columns:
// the ranks of the shared values that either median can be are sorted
// once for both, and each window merges its own column into them
// (median_networks.hpp, pair_median_network): per output at k = 7, 189
// min/max plus a share of the column sorts, where one window's network
// alone takes 362 and forgetful selection above 698. Every index is known
// at compile time, so the k(k + 1) values stay in registers.
template <median_filter::CompareExchange step, class V, int N>
__device__ __forceinline__ void network_step(V (&v)[N]) {
  const V a = v[step.low], b = v[step.high];
  if constexpr (step.keep_min) v[step.low] = min(a, b);
  if constexpr (step.keep_max) v[step.high] = max(a, b);
}
// A network as a type whose template arguments are its steps, made where
// host code may run (std::array's functions are host functions), so that
// the kernel only unrolls them.
template <median_filter::CompareExchange... steps>
struct NetworkSteps {};
template <auto network, std::size_t... s>
constexpr auto steps_of(std::index_sequence<s...>) {
  return NetworkSteps<network[s]...>{};
}
template <auto network>
using FixedSteps = decltype(steps_of<network>(std::make_index_sequence<network.size()>{}));
template <int K>
using ColumnSortNetwork = FixedSteps<median_filter::fixed_network<K, false>()>;
template <int K>
using PairMedianNetwork = FixedSteps<median_filter::fixed_pair_median_network<K>()>;

// Where the pair network leaves the two medians, worked out on the host side too.
template <int K>
struct PairMedianAt {
  static constexpr int left = median_filter::pair_median_positions(K)[0];
  static constexpr int right = median_filter::pair_median_positions(K)[1];
};

template <median_filter::CompareExchange... steps, class V, int N>
__device__ __forceinline__ void run_network(NetworkSteps<steps...>, V (&v)[N]) {
  (network_step<steps>(v), ...);
}

// Sorted s[0..N-1] and one more value x, merged into sorted out[0..N]:
// out[i] = max(s[i-1], min(s[i], x)), 2N min/max, two deep. (The i-th
// smallest is s[i-1] where x lies below it, s[i] where x lies above that,
// else x.)
template <int N, class V>
__device__ __forceinline__ void insert_into_sorted(const V (&s)[N], V x, V (&out)[N + 1]) {
  out[0] = min(s[0], x);
#pragma unroll
  for (int i = 1; i < N; ++i) out[i] = max(s[i - 1], min(s[i], x));
  out[N] = max(s[N - 1], x);
}

// cuda_network's and cuda_quads' first step: every column of K tile values
// under an output row sorted once, into sorted[i][a][j] (the i-th smallest of
// tile rows a .. a+K-1, column j), shared by the K windows that hold it. The
// columns under output rows a and a + 1 share K - 1 values: those are sorted
// once for both, and each column's own value is inserted (at k = 7, 48
// min/max for the two columns instead of 64).
template <int K, class T, class V, int SORTED_PITCH>
__device__ __forceinline__ void sort_tile_columns(const T* tile, V (&sorted)[K][kMedianTileHeight][SORTED_PITCH]) {
  static_assert(kMedianTileHeight % 2 == 0, "output rows are sorted in pairs");
  constexpr int PITCH = kMedianTileWidth + 2 * (K / 2);  // the tile's
  const int threads = int(blockDim.x * blockDim.y), thread = int(threadIdx.y * blockDim.x + threadIdx.x);
  for (int e = thread; e < kMedianTileHeight / 2 * PITCH; e += threads) {
    const int a = 2 * (e / PITCH), j = e % PITCH;  // output rows a and a + 1, tile column j
    V both[K - 1];                                  // tile rows a + 1 .. a + K - 1
#pragma unroll
    for (int i = 0; i < K - 1; ++i) both[i] = tile[(a + 1 + i) * PITCH + j];
    run_network(ColumnSortNetwork<K - 1>{}, both);
    V upper[K], lower[K];
    insert_into_sorted(both, V(tile[a * PITCH + j]), upper);
    insert_into_sorted(both, V(tile[(a + K) * PITCH + j]), lower);
#pragma unroll
    for (int i = 0; i < K; ++i) sorted[i][a][j] = upper[i], sorted[i][a + 1][j] = lower[i];
  }
  __syncthreads();  // every sorted column is in before a window reads it
}

template <class T, int K>
__global__ void median_network(const T* in, T* out, int height, int width, MedianSettings settings) {
  using V = typename MedianWord<T>::type;
  constexpr int R = K / 2, PITCH = kMedianTileWidth + 2 * R, ROWS = kMedianTileHeight + 2 * R;
  // Sorted rows of an odd length: the two output rows a warp reads (half a
  // warp each) then fall in banks of opposite parity, with no conflict.
  constexpr int SORTED_PITCH = PITCH | 1;
  __shared__ T tile[ROWS * PITCH];
  __shared__ V sorted[K][kMedianTileHeight][SORTED_PITCH];  // [i][a][j]: the i-th smallest of tile rows a .. a+K-1, column j
  const std::size_t frame_offset = std::size_t(blockIdx.z) * height * width;
  load_tile(in + frame_offset, height, width, R, tile, PITCH, ROWS);

  sort_tile_columns<K>(tile, sorted);

  // This thread's two windows: tile row a, columns 2p and 2p + 1 (half a
  // warp on each of two rows).
  constexpr int kPairsPerRow = kMedianTileWidth / 2;
  const int p = int(threadIdx.x) % kPairsPerRow, a = 2 * int(threadIdx.y) + int(threadIdx.x) / kPairsPerRow;
  const int x = int(blockIdx.x) * kMedianTileWidth + 2 * p, y = int(blockIdx.y) * kMedianTileHeight + a;
  if (x >= width || y >= height) return;
  V window[(K + 1) * K];  // value c·K + i: row i of sorted column 2p + c
#pragma unroll
  for (int c = 0; c <= K; ++c)
#pragma unroll
    for (int i = 0; i < K; ++i) window[c * K + i] = sorted[i][a][2 * p + c];
  run_network(PairMedianNetwork<K>{}, window);
  constexpr int left = PairMedianAt<K>::left, right = PairMedianAt<K>::right;
  const T* centre = tile + (a + R) * PITCH + 2 * p + R;
  T* row = out + frame_offset + std::size_t(y) * width;
  row[x] = T(choose_output(V(centre[0]), window[left], settings));
  if (x + 1 < width) row[x + 1] = T(choose_output(V(centre[1]), window[right], settings));
}

// cuda_quads, k = 7: four windows side by side a thread. They share k - 3
// sorted columns, and each two of them k - 1: the shared ranks that any of
// the four medians can be are merged once for all four, each pair merges
// its two more shared columns into them, and each window its own column
// (median_networks.hpp, quad_median_networks): per output 117 min/max plus
// a share of the column sorts, where the pair of cuda_network takes 189.
// The tile is cuda_network's; its 32 × 16 outputs are 128 threads' quads.
constexpr int kQuadBlockRows = kMedianTileHeight / 4;  // a thread per four outputs: 32 × 4 threads
template <int K>
using QuadSharedNetwork = FixedSteps<median_filter::fixed_quad_shared_network<K>()>;
template <int K>
using QuadPairNetwork = FixedSteps<median_filter::fixed_quad_pair_network<K>()>;
// The positions where the four's shared ranks end, as a type (as FixedSteps).
template <int... positions>
struct Positions {};
template <auto array, std::size_t... s>
constexpr auto positions_of(std::index_sequence<s...>) {
  return Positions<array[s]...>{};
}
template <int K>
struct QuadAt {
  static constexpr auto shared_ranks_array = median_filter::fixed_quad_shared_positions<K>();
  using SharedRanks = decltype(positions_of<shared_ranks_array>(std::make_index_sequence<shared_ranks_array.size()>{}));
  static constexpr int ranks = int(shared_ranks_array.size());
  static constexpr int left = median_filter::quad_median_networks(K).pair_medians[0];
  static constexpr int right = median_filter::quad_median_networks(K).pair_medians[1];
};
// to[0], to[1], ... = from[positions...].
template <int... positions, class V, int N, int M>
__device__ __forceinline__ void copy_ranks(Positions<positions...>, const V (&from)[N], V (&to)[M]) {
  int r = 0;
  ((to[r++] = from[positions]), ...);
}

template <class T, int K>
__global__ void median_quads(const T* in, T* out, int height, int width, MedianSettings settings) {
  using V = typename MedianWord<T>::type;
  constexpr int R = K / 2, PITCH = kMedianTileWidth + 2 * R, ROWS = kMedianTileHeight + 2 * R;
  constexpr int SORTED_PITCH = PITCH | 1;
  __shared__ T tile[ROWS * PITCH];
  __shared__ V sorted[K][kMedianTileHeight][SORTED_PITCH];  // as median_network's
  const std::size_t frame_offset = std::size_t(blockIdx.z) * height * width;
  load_tile(in + frame_offset, height, width, R, tile, PITCH, ROWS);

  sort_tile_columns<K>(tile, sorted);
  const int thread = int(threadIdx.y * blockDim.x + threadIdx.x);

  // This thread's four windows: tile row a, columns 4q .. 4q + 3 (eight
  // quads a row; a warp's four rows fall in different banks).
  constexpr int kQuadsPerRow = kMedianTileWidth / 4;
  const int q = thread % kQuadsPerRow, a = thread / kQuadsPerRow;
  const int x = int(blockIdx.x) * kMedianTileWidth + 4 * q, y = int(blockIdx.y) * kMedianTileHeight + a;
  if (x >= width || y >= height) return;
  const V* columns = &sorted[0][a][4 * q];  // group column c, row i: columns[i * kMedianTileHeight * SORTED_PITCH + c]
  constexpr int ROW_STRIDE = kMedianTileHeight * SORTED_PITCH;
  V shared[(K - 3) * K];  // the four's columns 3 .. K-1
#pragma unroll
  for (int c = 0; c < K - 3; ++c)
#pragma unroll
    for (int i = 0; i < K; ++i) shared[c * K + i] = columns[i * ROW_STRIDE + 3 + c];
  run_network(QuadSharedNetwork<K>{}, shared);

  const T* centre = tile + (a + R) * PITCH + 4 * q + R;
  T* row = out + frame_offset + std::size_t(y) * width;
#pragma unroll
  for (int pair = 0; pair < 2; ++pair) {
    constexpr int L = QuadAt<K>::ranks;
    V v[L + 4 * K];  // the shared ranks, the pair's two more shared columns, each window's own
    copy_ranks(typename QuadAt<K>::SharedRanks{}, shared, v);
    const int more = pair == 0 ? 1 : K, own = 2 * pair;  // group columns
#pragma unroll
    for (int i = 0; i < K; ++i) {
      v[L + i] = columns[i * ROW_STRIDE + more];
      v[L + K + i] = columns[i * ROW_STRIDE + more + 1];
      v[L + 2 * K + i] = columns[i * ROW_STRIDE + own];
      v[L + 3 * K + i] = columns[i * ROW_STRIDE + own + K];
    }
    run_network(QuadPairNetwork<K>{}, v);
    const int left = x + own;
    if (left < width) row[left] = T(choose_output(V(centre[own]), v[QuadAt<K>::left], settings));
    if (left + 1 < width) row[left + 1] = T(choose_output(V(centre[own + 1]), v[QuadAt<K>::right], settings));
  }
}

// Any odd k up to 15: the same selection, the buffer indexed at run time
// (so in local memory, cached in L1), one output at a time.
template <class T>
__global__ void median_general(const T* in, T* out, int height, int width, MedianSettings settings) {
  using V = typename MedianWord<T>::type;
  extern __shared__ __align__(16) unsigned char median_tile_bytes[];
  T* tile = reinterpret_cast<T*>(median_tile_bytes);
  const int k = settings.size, r = k / 2, n = k * k, b = n / 2 + 2;
  const int pitch = kMedianTileWidth + 2 * r, rows = kMedianTileHeight + 2 * r;
  const std::size_t frame_offset = std::size_t(blockIdx.z) * height * width;
  load_tile(in + frame_offset, height, width, r, tile, pitch, rows);

  const int tx = threadIdx.x, x = int(blockIdx.x) * kMedianTileWidth + tx;
  V buffer[kMedianLargestSize * kMedianLargestSize / 2 + 2];
  for (int a = 2 * threadIdx.y; a < 2 * threadIdx.y + 2; ++a) {
    const int y = int(blockIdx.y) * kMedianTileHeight + a;
    if (x >= width || y >= height) continue;
    const T* window = tile + a * pitch + tx;
    V median;
    if (n == 1) {
      median = window[0];
    } else {
      for (int e = 0; e < b; ++e) buffer[e] = window[(e / k) * pitch + e % k];
      for (int e = b; e < n; ++e) {
        extremes_to_ends(buffer, e - b, b - 1);
        buffer[b - 1] = window[(e / k) * pitch + e % k];
      }
      const int last = n - b;  // three values left
      median = median_of_three(buffer[last], buffer[last + 1], buffer[last + 2]);
    }
    out[frame_offset + std::size_t(y) * width + x] = T(choose_output(V(window[r * pitch + r]), median, settings));
  }
}

// How k = 5 and 7 are filtered: forgetful selection in registers (the cuda
// and cuda_streams rungs), the selection network over sorted columns (the
// cuda_network rung), or for k = 7 that network shared by four windows
// (cuda_quads; its k = 5 is cuda_network's). k = 3 and larger windows have
// one kernel each.
enum class MedianKernel { forgetful_selection, network, quads };

// Filters `frames` frames of height × width on `stream`: the one place that
// picks the kernel and its launch shape. Host code, for the rungs.
template <class T>
void launch_median_filter(const T* d_in, T* d_out, std::size_t frames, int height, int width,
                          const MedianSettings& settings, cudaStream_t stream,
                          MedianKernel kernel = MedianKernel::forgetful_selection) {
  const bool network = kernel != MedianKernel::forgetful_selection;
  const dim3 threads(kMedianTileWidth, kMedianBlockRows);
  const unsigned tiles_x = unsigned((width + kMedianTileWidth - 1) / kMedianTileWidth);
  const unsigned tiles_y = unsigned((height + kMedianTileHeight - 1) / kMedianTileHeight);
  const int r = settings.size / 2;
  const std::size_t shared_bytes =
      std::size_t(kMedianTileWidth + 2 * r) * (kMedianTileHeight + 2 * r) * sizeof(T);
  const std::size_t frame = std::size_t(height) * width;
  constexpr std::size_t kMaxGridZ = 65535;
  for (std::size_t first = 0; first < frames; first += kMaxGridZ) {
    const dim3 grid(tiles_x, tiles_y, unsigned(frames - first < kMaxGridZ ? frames - first : kMaxGridZ));
    const T* in = d_in + first * frame;
    T* out = d_out + first * frame;
    switch (settings.size) {
      case 3: {
        const dim3 columns(tiles_x, unsigned((height + kMedianBlockRows * kMedian3Rows - 1) /
                                             (kMedianBlockRows * kMedian3Rows)), grid.z);
        median3_columns<T><<<columns, threads, 0, stream>>>(in, out, height, width, settings);
        break;
      }
      case 5:
        if (network) median_network<T, 5><<<grid, threads, 0, stream>>>(in, out, height, width, settings);
        else median_registers<T, 5><<<grid, threads, 0, stream>>>(in, out, height, width, settings);
        break;
      case 7:
        if (kernel == MedianKernel::quads)
          median_quads<T, 7><<<grid, dim3(kMedianTileWidth, kQuadBlockRows), 0, stream>>>(in, out, height, width,
                                                                                          settings);
        else if (network) median_network<T, 7><<<grid, threads, 0, stream>>>(in, out, height, width, settings);
        else median_registers<T, 7><<<grid, threads, 0, stream>>>(in, out, height, width, settings);
        break;
      default: median_general<T><<<grid, threads, shared_bytes, stream>>>(in, out, height, width, settings);
    }
  }
}

}  // namespace ladder
