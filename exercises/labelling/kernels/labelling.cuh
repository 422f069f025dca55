#pragma once
// Connected-component labelling on the GPU by label equivalence, then
// scipy's numbering by a prefix sum over the roots. Five kernels, launched
// in this order:
//
//   label_tiles          each block labels one 32×32 tile in shared memory      (yours)
//   merge_tile_borders   unites the pixels that touch across tile borders      (yours)
//   count_roots          flattens every tree; marks and counts the roots       (given)
//   scan_chunk_counts    one block: the exclusive prefix over the chunks       (given)
//   number_components    label = 1 + the number of roots before my root        (given)
//
// A label is a pixel's linear index; labels[i] = -1 for background. After
// your two kernels, labels[] is a forest: following labels[i], labels[labels[i]],
// ... from a foreground pixel leads to its component's root r, with
// labels[r] = r, and r is the component's smallest index (its first pixel in
// raster order). The given kernels turn that into scipy's numbering.
#include <cstddef>

namespace {  // internal: the solution's kernels of the same names are linked into ladder too

constexpr int kTileWidth = 32;  // one warp per tile row: a ballot sees the whole row
constexpr int kTileHeight = 32;
constexpr int kTileWarps = 8;  // warp w takes the tile's rows w, w + 8, w + 16, w + 24
constexpr int kRowsPerWarp = kTileHeight / kTileWarps;
constexpr int kTileThreads = kTileWidth * kTileWarps;
constexpr int kBorderThreads = 96;  // >= kTileWidth + 2 * (kTileHeight - 1): the pixels of a tile's borders
constexpr int kChunk = 1024;        // pixels per block of count_roots, counts per pass of scan_chunk_counts
constexpr int kCountThreads = 256;  // threads per block of count_roots and scan_chunk_counts: 4 pixels (counts) each

// The neighbours a foreground pixel x unites with, from its scan mask:
// a (up-left), b (up), c (up-right), d (left). d is always joined; the rest
// only where no other union already implies it (two_pass.hpp explains).
constexpr unsigned kJoinA = 1, kJoinB = 2, kJoinC = 4, kJoinD = 8;

template <int Connectivity>
__device__ __forceinline__ unsigned join_mask(bool a, bool b, bool c, bool d) {
  if (Connectivity == 4) return (d ? kJoinD : 0u) | (b && !(d && a) ? kJoinB : 0u);
  // 8: with d joined, d's own unions reach a and b; only c (if b is not
  // there to link it) is left. Without d, b links a and c; else each alone.
  if (d) return kJoinD | (c && !b ? kJoinC : 0u);
  if (b) return kJoinB;
  return (a ? kJoinA : 0u) | (c ? kJoinC : 0u);
}

// Root of i's tree, halving the path on the way (each visited label is
// pointed at its grandparent): trees stay shallow while they grow.
// `volatile`: other threads link roots while we walk. A halving store can
// race with another thread's atomicMin on the same label; that thread sees
// the value it replaced and carries on from it (unite), so no link is lost.
__device__ __forceinline__ int find_root(volatile int* parent, int i) {
  while (true) {
    const int p = parent[i];
    if (p == i) return i;
    const int grandparent = parent[p];
    if (grandparent == p) return p;
    parent[i] = grandparent;
    i = grandparent;
  }
}

// TODO: hang the larger of the two roots of a and b under the smaller, in
// a parent array that other threads change at the same time. Which atomic
// makes "link b's root under a" safe, and what if b's root stopped being a
// root between your find_root and your write?
__device__ __forceinline__ void unite(volatile int* parent, int a, int b) {}

// One block of kTileWidth × kTileWarps threads per 32×32 tile (tiles
// numbered row by row, tiles_across per row); thread (x, y) of the block
// takes the tile's column x, rows y, y + 8, y + 16, y + 24. Leaves in
// labels[i], for each pixel i of the tile, -1 for background or the global
// index of its root within the tile (the tile's union-find, in shared
// memory: the tile as if nothing lay outside it).
template <int Connectivity>
__global__ void __launch_bounds__(kTileThreads) label_tiles(const unsigned char* __restrict__ image, int height,
                                                            int width, int tiles_across, int* __restrict__ labels) {
  // TODO: parent[] in __shared__ memory, every pixel its own root; unite
  // each foreground pixel with the neighbours of its join_mask that lie
  // inside the tile; then each pixel's root, as a global index.
}

// One block of kBorderThreads threads per tile: unites, in labels[] (global
// memory), each pixel on the tile's top row and left column (and right
// column, for 8) with the neighbours of its join_mask that lie outside the
// tile. Launched only when there is more than one tile.
template <int Connectivity>
__global__ void __launch_bounds__(kBorderThreads)
    merge_tile_borders(const unsigned char* __restrict__ image, int height, int width, int tiles_across, int* labels) {
  // TODO: which thread takes which border pixel? Which unions reach
  // outside the tile?
}

// Exclusive prefix sum of the 32 lanes' values, and the total in *total.
__device__ __forceinline__ int warp_exclusive_sum(int value, int* total) {
  const int lane = threadIdx.x % 32;
  int sum = value;
  for (int step = 1; step < 32; step *= 2) {
    const int other = __shfl_up_sync(0xFFFFFFFFu, sum, step);
    if (lane >= step) sum += other;
  }
  *total = __shfl_sync(0xFFFFFFFFu, sum, 31);
  return sum - value;
}

// One block per chunk of kChunk pixels, each thread four of them (one per
// quarter of the chunk, so that a warp's 32 pixels are one 32-pixel word).
// Points every pixel straight at its root: no unions happen any more, so
// plain (cached) loads see a path to the true root, and the root found is
// final. Then marks the roots: root_bits has one bit per pixel,
// word_offsets the number of roots in the chunk before each word,
// chunk_counts the chunk's total.
__global__ void __launch_bounds__(kCountThreads)
    count_roots(int* labels, unsigned n, unsigned* __restrict__ root_bits, int* __restrict__ word_offsets,
                int* __restrict__ chunk_counts) {
  constexpr int kPixelsPerThread = kChunk / kCountThreads, kWarps = kCountThreads / 32;
  __shared__ int word_counts[kChunk / 32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int parent[kPixelsPerThread];
#pragma unroll
  for (int k = 0; k < kPixelsPerThread; ++k) {
    const unsigned i = blockIdx.x * kChunk + k * kCountThreads + threadIdx.x;
    parent[k] = i < n ? labels[i] : -1;
  }
#pragma unroll
  for (int k = 0; k < kPixelsPerThread; ++k) {
    const unsigned i = blockIdx.x * kChunk + k * kCountThreads + threadIdx.x;
    const int p = parent[k];
    int root = p;
    if (p >= 0) {
      while (labels[root] != root) root = labels[root];
      if (p != root) {
        labels[i] = root;
        if (labels[p] != root) labels[p] = root;  // the next pixels of this tile find the root in one step
      }
    }
    const unsigned bits = __ballot_sync(0xFFFFFFFFu, p >= 0 && root == int(i));
    if (lane == 0) {
      root_bits[i / 32] = bits;
      word_counts[k * kWarps + warp] = __popc(bits);
    }
  }
  __syncthreads();  // the 32 words' counts are in
  if (warp == 0) {
    int total;
    const int offset = warp_exclusive_sum(word_counts[lane], &total);
    word_offsets[blockIdx.x * (kChunk / 32) + lane] = offset;
    if (lane == 0) chunk_counts[blockIdx.x] = total;
  }
}

// One block: counts[k] becomes the sum of counts[0..k). Each pass takes
// kChunk counts, four consecutive ones per thread, and carries the running
// total to the next pass.
__global__ void __launch_bounds__(kCountThreads) scan_chunk_counts(int* counts, unsigned chunks) {
  constexpr int kPerThread = kChunk / kCountThreads, kWarps = kCountThreads / 32;
  __shared__ int warp_offsets[kWarps];
  __shared__ int carry;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (threadIdx.x == 0) carry = 0;
  for (unsigned base = 0; base < chunks; base += kChunk) {
    const unsigned first = base + threadIdx.x * kPerThread;
    int values[kPerThread], sum = 0;
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) {
      values[k] = first + k < chunks ? counts[first + k] : 0;
      sum += values[k];
    }
    int warp_total;
    const int in_warp = warp_exclusive_sum(sum, &warp_total);
    if (lane == 0) warp_offsets[warp] = warp_total;
    __syncthreads();  // the warps' totals (and the carry) are in
    if (warp == 0) {
      int pass_total;
      const int offset = warp_exclusive_sum(lane < kWarps ? warp_offsets[lane] : 0, &pass_total);
      const int before = carry;
      __syncwarp();  // every lane has read warp_offsets and carry before they change
      if (lane < kWarps) warp_offsets[lane] = before + offset;
      if (lane == 0) carry = before + pass_total;
    }
    __syncthreads();  // the warps' offsets are in
    int running = warp_offsets[warp] + in_warp;
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) {
      if (first + k < chunks) counts[first + k] = running;
      running += values[k];
    }
    __syncthreads();  // everyone has read warp_offsets before the next pass writes them
  }
}

// labels[i] = 1 + the number of roots before i's root, or 0 for background.
// Each thread reads only its own label (the root's index), so the labels
// can be rewritten in place.
__global__ void number_components(int* labels, unsigned n, const unsigned* __restrict__ root_bits,
                                  const int* __restrict__ word_offsets, const int* __restrict__ chunk_offsets) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int root = labels[i];
  if (root < 0) {
    labels[i] = 0;
    return;
  }
  const unsigned word = unsigned(root) / 32, below = (1u << (root % 32)) - 1u;
  labels[i] = 1 + chunk_offsets[unsigned(root) / kChunk] + word_offsets[word] + __popc(root_bits[word] & below);
}

}  // namespace
