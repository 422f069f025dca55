#pragma once
// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// Connected-component labelling on the GPU by label equivalence, then
// scipy's numbering by a prefix sum over the roots. Five kernels, launched
// in this order:
//
//   label_tiles          each block labels one 32×32 tile in shared memory      (yours)
//   merge_tile_borders   unites the pixels that touch across tile borders      (yours)
//   count_roots          marks and counts the roots                            (given)
//   scan_chunk_counts    one block: the exclusive prefix over the chunks       (given)
//   number_components    label = 1 + the number of roots before my root        (given)
//
// A label is a pixel's linear index; forest[i] = -1 for background. After
// your two kernels, forest[] is a forest: following forest[i], forest[forest[i]],
// ... from a foreground pixel leads to its component's root r, with
// forest[r] = r, and r is the component's smallest index (its first pixel in
// raster order). The given kernels turn that into scipy's numbering.
// (The solution's kernels also keep the roots as bits while the forest is
// built, so that counting them reads the bits, not the forest; the given
// ones here find the roots in the forest, so that your two kernels only
// build it.)

// Until this #define (two lines) is deleted, the cuda rung reports "not
// implemented": delete it when your kernel is written, then rebuild.
#define LADDER_TODO_CUDA_KERNEL \
  "cuda: write the kernel in exercises/labelling/kernels/labelling.cuh, then delete its LADDER_TODO_CUDA_KERNEL #define and rebuild"
// ==== end
#include <cstddef>

#include <cuda/atomic>

// ==== exercise only
namespace {  // internal: the solution's kernels of the same names are linked into ladder too
// ==== end

constexpr int kTileWidth = 32;  // one warp per tile row: a ballot sees the whole row
constexpr int kTileHeight = 32;
constexpr int kTileWarps = 8;  // warp w takes the tile's rows w, w + 8, w + 16, w + 24
constexpr int kRowsPerWarp = kTileHeight / kTileWarps;
constexpr int kTileThreads = kTileWidth * kTileWarps;
constexpr int kBorderThreads = 96;  // >= kTileWidth + 2 * (kTileHeight - 1): the pixels of a tile's borders
// ==== exercise only
constexpr int kChunk = 1024;        // pixels per block of count_roots
constexpr int kCountThreads = 256;  // threads per block of count_roots: 4 pixels each
// ==== end
constexpr int kScanThreads = 1024;  // threads of scan_chunk_counts' one block: 4 counts each, 4096 a pass

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

// While the forest is built, many threads change it at once, so every
// access to it is atomic: cuda::atomic_ref with relaxed order (a thread
// needs each value whole, not an order between values), which is
// race-free by the memory model. Scope: the block for a tile's shared
// memory, the device for parent[] in global memory.
template <cuda::thread_scope Scope>
__device__ __forceinline__ cuda::atomic_ref<int, Scope> element(int* parent, int i) {
  return cuda::atomic_ref<int, Scope>(parent[i]);
}

// Root of i's tree, halving the path on the way (each visited label is
// pointed at its grandparent), so that trees stay shallow while they
// grow. Every link points to a smaller index (a union hangs the larger
// root under the smaller; a pixel starts at its run's first pixel), so
// the halving step is a fetch_min too: it never undoes a link another
// thread made meanwhile, and the only stores to the forest are atomic
// read-modify-writes, which compute-sanitizer's racecheck accepts (it
// takes any other store that meets a load for a hazard, a relaxed
// atomic_ref store included).
template <cuda::thread_scope Scope>
__device__ __forceinline__ int find_root(int* parent, int i) {
  while (true) {
    const int p = element<Scope>(parent, i).load(cuda::memory_order_relaxed);
    if (p == i) return i;
    const int grandparent = element<Scope>(parent, p).load(cuda::memory_order_relaxed);
    if (grandparent == p) return p;
    element<Scope>(parent, i).fetch_min(grandparent, cuda::memory_order_relaxed);
    i = grandparent;
  }
}

// ==== yours
// TODO: hang the larger of the two roots of a and b under the smaller, in
// a parent array that other threads change at the same time. Which atomic
// operation of element<Scope>(parent, b) makes "link b's root under a"
// safe, and what if b's root stopped being a root between your find_root
// and your write? (label_tiles passes cuda::thread_scope_block,
// merge_tile_borders cuda::thread_scope_device.)
template <cuda::thread_scope Scope>
__device__ __forceinline__ void unite(int* parent, int a, int b) {}
// ==== end

// ==== exercise only
// One block of kTileWidth × kTileWarps threads per 32×32 tile (tiles
// numbered row by row, tiles_across per row); thread (x, y) of the block
// takes the tile's column x, rows y, y + 8, y + 16, y + 24. Leaves in
// forest[i], for each pixel i of the tile, -1 for background or the global
// index of its root within the tile (the tile's union-find, in shared
// memory: the tile as if nothing lay outside it).
// ==== end
template <int Connectivity>
// ==== exercise only
__global__ void __launch_bounds__(kTileThreads) label_tiles(const unsigned char* __restrict__ image, int height,
                                                            int width, int tiles_across, int* __restrict__ forest) {
// ==== end
  // ==== yours
  // TODO: parent[] in __shared__ memory, every pixel its own root; unite
  // each foreground pixel with the neighbours of its join_mask that lie
  // inside the tile; then each pixel's root, as a global index.
  // ==== end
}

// ==== exercise only
// One block of kBorderThreads threads per tile: unites, in forest[] (global
// memory), each pixel on the tile's top row and left column (and right
// column, for 8) with the neighbours of its join_mask that lie outside the
// tile. Launched only when there is more than one tile.
// ==== end
template <int Connectivity>
__global__ void __launch_bounds__(kBorderThreads)
// ==== exercise only
    merge_tile_borders(const unsigned char* __restrict__ image, int height, int width, int tiles_across, int* forest) {
// ==== end
  // ==== yours
  // TODO: which thread takes which border pixel? Which unions reach
  // outside the tile?
  // ==== end
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

// ==== exercise only
// One block per chunk of kChunk pixels, each thread four of them (one per
// quarter of the chunk, so that a warp's 32 pixels are one 32-pixel word).
// Marks the roots, the pixels that are their own parent: root_bits has one
// bit per pixel, word_offsets the number of roots in the chunk before each
// word, chunk_counts the chunk's total.
__global__ void __launch_bounds__(kCountThreads)
    count_roots(const int* __restrict__ forest, unsigned n, unsigned* __restrict__ root_bits,
                int* __restrict__ word_offsets, int* __restrict__ chunk_counts) {
  constexpr int kPixelsPerThread = kChunk / kCountThreads, kWarps = kCountThreads / 32;
  __shared__ int word_counts[kChunk / 32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
  for (int k = 0; k < kPixelsPerThread; ++k) {
    const unsigned i = blockIdx.x * kChunk + k * kCountThreads + threadIdx.x;
    const unsigned bits = __ballot_sync(0xFFFFFFFFu, i < n && forest[i] == int(i));
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
// ==== end

// One block: counts[k] becomes the sum of counts[0..k). Each pass takes
// four consecutive counts a thread, so that a warp reads 512 contiguous
// bytes, and carries the running total to the next pass. One block works
// ==== exercise only
// alone and its time is the latency of its passes: 1024 threads take a
// 4096² image's 16384 chunks in 4 passes.
// ==== end
__global__ void __launch_bounds__(kScanThreads) scan_chunk_counts(int* counts, unsigned chunks) {
  constexpr int kPerThread = 4, kWarps = kScanThreads / 32;
  __shared__ int warp_offsets[kWarps];
  __shared__ int carry;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (threadIdx.x == 0) carry = 0;
  for (unsigned base = 0; base < chunks; base += kScanThreads * kPerThread) {
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

// ==== exercise only
// labels[i] = 1 + the number of roots before i's root, or 0 for background.
// Nothing changes the forest any more, so plain (cached) loads walk each
// pixel to its root: one step to its tile's root, then the few links
// that the border unions left.
__global__ void number_components(const int* __restrict__ forest, int* __restrict__ labels, unsigned n,
                                  const unsigned* __restrict__ root_bits, const int* __restrict__ word_offsets,
                                  const int* __restrict__ chunk_offsets) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int root = forest[i];
  if (root < 0) {
    labels[i] = 0;
    return;
  }
  for (int next; (next = forest[root]) != root;) root = next;
  const unsigned word = unsigned(root) / 32, below = (1u << (root % 32)) - 1u;
  labels[i] = 1 + chunk_offsets[unsigned(root) / kChunk] + word_offsets[word] + __popc(root_bits[word] & below);
}
// ==== end

}  // namespace
