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
// GPU. The block's tile is loaded as above; then every column of k values
// under an output row is sorted once, into shared memory, and serves the k
// windows that hold it; each window's median is the pruned network of
// median_networks.hpp over its k sorted columns (rows sorted too, so most
// values are ruled out before any comparison between them): per output at
// k = 7, 362 min/max plus a share of the column sorts, where forgetful
// selection above takes 698. Every index is known at compile time, so the
// k² values stay in registers.
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
template <int K, bool median>
using FixedNetwork = decltype(steps_of<median_filter::fixed_network<K, median>()>(
    std::make_index_sequence<median_filter::fixed_network<K, median>().size()>{}));

template <median_filter::CompareExchange... steps, class V, int N>
__device__ __forceinline__ void run_network(NetworkSteps<steps...>, V (&v)[N]) {
  (network_step<steps>(v), ...);
}

template <class T, int K>
__global__ void median_network(const T* in, T* out, int height, int width, MedianSettings settings) {
  using V = typename MedianWord<T>::type;
  constexpr int R = K / 2, PITCH = kMedianTileWidth + 2 * R, ROWS = kMedianTileHeight + 2 * R;
  __shared__ T tile[ROWS * PITCH];
  __shared__ V sorted[K][kMedianTileHeight][PITCH];  // [i][a][j]: the i-th smallest of tile rows a .. a+K-1, column j
  const std::size_t frame_offset = std::size_t(blockIdx.z) * height * width;
  load_tile(in + frame_offset, height, width, R, tile, PITCH, ROWS);

  const int threads = int(blockDim.x * blockDim.y), thread = int(threadIdx.y * blockDim.x + threadIdx.x);
  for (int e = thread; e < kMedianTileHeight * PITCH; e += threads) {
    const int a = e / PITCH, j = e % PITCH;
    V column[K];
#pragma unroll
    for (int i = 0; i < K; ++i) column[i] = tile[(a + i) * PITCH + j];
    run_network(FixedNetwork<K, false>{}, column);
#pragma unroll
    for (int i = 0; i < K; ++i) sorted[i][a][j] = column[i];
  }
  __syncthreads();  // every sorted column is in before a window reads it

  const int tx = threadIdx.x, x = int(blockIdx.x) * kMedianTileWidth + tx;
  for (int a = 2 * threadIdx.y; a < 2 * threadIdx.y + 2; ++a) {
    const int y = int(blockIdx.y) * kMedianTileHeight + a;
    if (x >= width || y >= height) continue;
    V window[K * K];  // value c·K + i: row i of sorted column tx + c
#pragma unroll
    for (int c = 0; c < K; ++c)
#pragma unroll
      for (int i = 0; i < K; ++i) window[c * K + i] = sorted[i][a][tx + c];
    run_network(FixedNetwork<K, true>{}, window);
    out[frame_offset + std::size_t(y) * width + x] =
        T(choose_output(V(tile[(a + R) * PITCH + tx + R]), window[K * K / 2], settings));
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
// and cuda_streams rungs) or the selection network over sorted columns (the
// cuda_network rung). k = 3 and larger windows have one kernel each.
enum class MedianKernel { forgetful_selection, network };

// Filters `frames` frames of height × width on `stream`: the one place that
// picks the kernel and its launch shape. Host code, for the rungs.
template <class T>
void launch_median_filter(const T* d_in, T* d_out, std::size_t frames, int height, int width,
                          const MedianSettings& settings, cudaStream_t stream,
                          MedianKernel kernel = MedianKernel::forgetful_selection) {
  const bool network = kernel == MedianKernel::network;
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
        if (network) median_network<T, 7><<<grid, threads, 0, stream>>>(in, out, height, width, settings);
        else median_registers<T, 7><<<grid, threads, 0, stream>>>(in, out, height, width, settings);
        break;
      default: median_general<T><<<grid, threads, shared_bytes, stream>>>(in, out, height, width, settings);
    }
  }
}

}  // namespace ladder
