#pragma once
// Connected-component labelling on the GPU by label equivalence
// (union-find in the style of Playne and Hawick 2018, block-based as in
// Allegretti et al.'s BUF), then scipy's numbering by a prefix sum over
// the roots. Five kernels, launched in this order:
//
//   label_tiles          each block labels one 32×32 tile in shared memory
//   merge_tile_borders   unites the pixels that touch across tile borders
//   count_roots          counts the roots, from their bits
//   scan_chunk_counts    one block: the exclusive prefix over the chunks
//   number_components    label = 1 + the number of roots before my root
//
// The first two build a forest in parent[]: a pixel's linear index is its
// label, parent[i] = -1 for background. A union always hangs the larger
// root under the smaller (atomicMin), so the root of a component ends up
// at its smallest index, the first pixel in raster order, and the rank of
// that root among all roots is scipy's number. The roots are kept as one
// bit per pixel while the forest is built: the tile kernels set the bits
// of their tiles' roots, and a border union clears the bit of the root it
// links, so counting them reads 2 MB of bits at 4096², not the 67 MB
// forest. The last three only read the forest and write the numbers into
// a separate labels[] array: with nothing changing the forest any more,
// plain cached loads walk it.
//
// Which neighbours a pixel unites with is decided as in the serial rung's
// tree (join_mask below), so most unions are never attempted.
#include <cstddef>
#include <cuda/atomic>

// Included by the cuda and cuda_rows rungs, each its own copy of the kernels.
namespace {

constexpr int kTileWidth = 32;  // one warp per tile row: a ballot sees the whole row
constexpr int kTileHeight = 32;
constexpr int kTileWarps = 8;  // warp w takes the tile's rows w, w + 8, w + 16, w + 24
constexpr int kRowsPerWarp = kTileHeight / kTileWarps;
constexpr int kTileThreads = kTileWidth * kTileWarps;
constexpr int kBorderThreads = 96;  // >= kTileWidth + 2 * (kTileHeight - 1): the pixels of a tile's borders
constexpr int kScanThreads = 1024;  // threads of scan_chunk_counts' one block: 4 counts each, 4096 a pass

constexpr int kCountThreads = 1024;         // threads per block of count_roots: a 32-pixel word each
constexpr int kChunk = 32 * kCountThreads;  // pixels per chunk, a block of count_roots
constexpr int kNumberThreads = 256;         // threads per block of number_components
constexpr int kNumberPixels = 4;            // pixels a thread of number_components walks at once

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

// Hangs the larger of the two roots under the smaller. fetch_min returns
// what was there: if it was no longer a root (another thread linked it
// meanwhile), carry on from where it now points. In global memory the
// roots' bits are kept too (root_bits; nullptr in a tile's shared memory):
// the one thread whose fetch_min finds b still a root clears b's bit.
template <cuda::thread_scope Scope>
__device__ __forceinline__ void unite(int* parent, int a, int b, unsigned* root_bits = nullptr) {
  while (true) {
    a = find_root<Scope>(parent, a);
    b = find_root<Scope>(parent, b);
    if (a == b) return;
    if (a > b) {
      const int t = a;
      a = b, b = t;
    }
    const int old = element<Scope>(parent, b).fetch_min(a, cuda::memory_order_relaxed);
    if (old == b) {
      if (root_bits != nullptr) atomicAnd(&root_bits[unsigned(b) / 32], ~(1u << (unsigned(b) % 32)));
      return;
    }
    b = old;
  }
}

__device__ __forceinline__ bool bit(unsigned bits, int lane) { return (bits >> lane) & 1u; }

// Root of i's tree once no union can change the tree any more (after the
// tile's last barrier): find_root's walk without the halving. cuda_rows'
// trees are shallow by then and the halving costs more than it saves; in
// label_tiles, where 256 threads unite at once, the trees are deeper and
// the halving pays (without it the cuda rung took 526 µs against 484 on
// 4096² noise).
template <cuda::thread_scope Scope>
__device__ __forceinline__ int settled_root(int* parent, int i) {
  for (int p; (p = element<Scope>(parent, i).load(cuda::memory_order_relaxed)) != i;) i = p;
  return i;
}

// Sets one tile row's root bits: bit l of `roots` is the row's pixel
// first + l. The row's 32 pixels lie in at most two words of root_bits
// (one where the image's width is a multiple of 32), which other tiles'
// rows share: atomicOr. The tile kernels give each row to a lane of its
// own, so that a warp's rows go in with one instruction.
__device__ __forceinline__ void mark_roots(unsigned* root_bits, std::size_t first, unsigned roots) {
  if (roots == 0) return;
  const unsigned shift = unsigned(first % 32);
  atomicOr(&root_bits[first / 32], roots << shift);
  if (shift != 0 && (roots >> (32 - shift)) != 0) atomicOr(&root_bits[first / 32 + 1], roots >> (32 - shift));
}

// One block per 32×32 tile (tiles numbered row by row, tiles_across per
// row); warp w takes the tile's rows w, w + 8, w + 16, w + 24, so that each
// thread has four loads in flight. The tile's pixels are labelled by
// union-find in shared memory; each pixel leaves in forest[] the global
// index of its tile-local root (-1 for background), and each tile-local
// root sets its bit in root_bits.
template <int Connectivity>
__global__ void __launch_bounds__(kTileThreads)
    label_tiles(const unsigned char* __restrict__ image, int height, int width, int tiles_across,
                int* __restrict__ forest, unsigned* __restrict__ root_bits) {
  __shared__ int parent[kTileHeight * kTileWidth];
  __shared__ unsigned row_bits[kTileHeight];                            // bit l: pixel (row, l) is foreground
  __shared__ bool left_column[kTileHeight], right_column[kTileHeight];  // the pixels just outside the tile's sides
  const int lane = threadIdx.x;
  const int x0 = (blockIdx.x % tiles_across) * kTileWidth, y0 = (blockIdx.x / tiles_across) * kTileHeight;
  const int x = x0 + lane;
  bool fg[kRowsPerWarp];
#pragma unroll
  for (int k = 0; k < kRowsPerWarp; ++k) {
    const int row = threadIdx.y + k * kTileWarps, y = y0 + row;
    fg[k] = x < width && y < height && image[std::size_t(y) * width + x];
    if (lane == 0) left_column[row] = x0 > 0 && y < height && image[std::size_t(y) * width + x0 - 1];
    if (lane == kTileWidth - 1)
      right_column[row] = x0 + kTileWidth < width && y < height && image[std::size_t(y) * width + x0 + kTileWidth];
  }
#pragma unroll
  for (int k = 0; k < kRowsPerWarp; ++k) {
    const int row = threadIdx.y + k * kTileWarps;
    const unsigned bits = __ballot_sync(0xFFFFFFFFu, fg[k]);
    if (lane == 0) row_bits[row] = bits;
    // Start each pixel at the first pixel of its run in this row: that
    // makes every union with d (inside the tile) without an atomic.
    const unsigned background_before = ~bits & ((1u << lane) - 1u);
    parent[row * kTileWidth + lane] = row * kTileWidth + (background_before ? 32 - __clz(background_before) : 0);
  }
  __syncthreads();  // every row's bits and every pixel's start are in before anyone unites

  // The unions with the row above (in the tile: row 0's go to merge_tile_borders).
#pragma unroll
  for (int k = 0; k < kRowsPerWarp; ++k) {
    const int row = threadIdx.y + k * kTileWarps, t = row * kTileWidth + lane;
    if (!fg[k] || row == 0) continue;
    const unsigned up = row_bits[row - 1], self = row_bits[row];
    const bool a = lane > 0 ? bit(up, lane - 1) : left_column[row - 1];
    const bool b = bit(up, lane);
    const bool c = lane < kTileWidth - 1 ? bit(up, lane + 1) : right_column[row - 1];
    const bool d = lane > 0 ? bit(self, lane - 1) : left_column[row];
    const unsigned join = join_mask<Connectivity>(a, b, c, d);
    if ((join & kJoinA) && lane > 0) unite<cuda::thread_scope_block>(parent, t, t - kTileWidth - 1);
    if (join & kJoinB) unite<cuda::thread_scope_block>(parent, t, t - kTileWidth);
    if ((join & kJoinC) && lane < kTileWidth - 1) unite<cuda::thread_scope_block>(parent, t, t - kTileWidth + 1);
  }
  __syncthreads();  // all unions done before the roots are read

  unsigned my_roots = 0;  // lane k: the root bits of this warp's k-th row
#pragma unroll
  for (int k = 0; k < kRowsPerWarp; ++k) {
    const int row = threadIdx.y + k * kTileWarps, y = y0 + row;
    if (y >= height) continue;  // the whole warp: it holds one row
    const int t = row * kTileWidth + lane;
    const int root = fg[k] ? find_root<cuda::thread_scope_block>(parent, t) : 0;
    if (x < width)
      forest[std::size_t(y) * width + x] = fg[k] ? (y0 + root / kTileWidth) * width + x0 + root % kTileWidth : -1;
    const unsigned roots = __ballot_sync(0xFFFFFFFFu, fg[k] && root == t);
    if (lane == k) my_roots = roots;
  }
  const int y = y0 + threadIdx.y + lane * kTileWarps;
  if (lane < kRowsPerWarp && y < height) mark_roots(root_bits, std::size_t(y) * width + x0, my_roots);
}

// One block per tile: thread k takes one pixel of the tile's top row
// (k < 32), left column (then) or right column (8 only), and makes the
// unions of its join mask that reach outside the tile; a root linked
// under another loses its bit in root_bits.
template <int Connectivity>
__global__ void __launch_bounds__(kBorderThreads)
    merge_tile_borders(const unsigned char* __restrict__ image, int height, int width, int tiles_across, int* forest,
                       unsigned* root_bits) {
  const int k = threadIdx.x;
  int lane, row;
  if (k < kTileWidth) {
    lane = k, row = 0;
  } else if (k < kTileWidth + kTileHeight - 1) {
    lane = 0, row = k - kTileWidth + 1;
  } else if (Connectivity == 8 && k < kTileWidth + 2 * (kTileHeight - 1)) {
    lane = kTileWidth - 1, row = k - kTileWidth - kTileHeight + 2;
  } else {
    return;
  }
  const int x0 = (blockIdx.x % tiles_across) * kTileWidth, y0 = (blockIdx.x / tiles_across) * kTileHeight;
  const int x = x0 + lane, y = y0 + row;
  if (x >= width || y >= height) return;
  const int i = y * width + x;
  if (!image[i]) return;
  const bool a = x > 0 && y > 0 && image[i - width - 1];
  const bool b = y > 0 && image[i - width];
  const bool c = x + 1 < width && y > 0 && image[i - width + 1];
  const bool d = x > 0 && image[i - 1];
  const unsigned join = join_mask<Connectivity>(a, b, c, d);
  if ((join & kJoinA) && (lane == 0 || row == 0)) unite<cuda::thread_scope_device>(forest, i, i - width - 1, root_bits);
  if ((join & kJoinB) && row == 0) unite<cuda::thread_scope_device>(forest, i, i - width, root_bits);
  if ((join & kJoinC) && (lane == kTileWidth - 1 || row == 0))
    unite<cuda::thread_scope_device>(forest, i, i - width + 1, root_bits);
  if ((join & kJoinD) && lane == 0) unite<cuda::thread_scope_device>(forest, i, i - 1, root_bits);
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

// One block per chunk of kChunk pixels, a thread per 32-pixel word of its
// root bits (set and cleared while the forest was built): word_offsets
// gets the number of roots in the chunk before each word, chunk_counts
// the chunk's total. Chunks of 32768 pixels leave scan_chunk_counts 512
// counts at 4096², one pass.
__global__ void __launch_bounds__(kCountThreads)
    count_roots(const unsigned* __restrict__ root_bits, int* __restrict__ word_offsets,
                int* __restrict__ chunk_counts) {
  constexpr int kWarps = kCountThreads / 32;
  __shared__ int warp_offsets[kWarps];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned word = blockIdx.x * kCountThreads + threadIdx.x;
  int warp_total;
  const int in_warp = warp_exclusive_sum(__popc(root_bits[word]), &warp_total);
  if (lane == 0) warp_offsets[warp] = warp_total;
  __syncthreads();  // the warps' totals are in
  if (warp == 0) {
    int total;
    const int offset = warp_exclusive_sum(warp_offsets[lane], &total);
    __syncwarp();  // every lane has read its total before it is replaced
    warp_offsets[lane] = offset;
    if (lane == 0) chunk_counts[blockIdx.x] = total;
  }
  __syncthreads();  // the warps' offsets are in
  word_offsets[word] = warp_offsets[warp] + in_warp;
}

// One block: counts[k] becomes the sum of counts[0..k). Each pass takes
// four consecutive counts a thread, so that a warp reads 512 contiguous
// bytes, and carries the running total to the next pass. One block works
// alone and its time is the latency of its passes: 1024 threads take an
// 8192² image's 2048 chunks in one pass.
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

// labels[i] = 1 + the number of roots before i's root, or 0 for background.
// Nothing changes the forest any more, so plain (cached) loads walk each
// pixel to its root: one step to its tile's root, then the few links
// that the border unions left. A walk is a chain of loads, each waiting
// for the last, so each thread walks kNumberPixels pixels in step: their
// loads are in flight together.
__global__ void __launch_bounds__(kNumberThreads)
    number_components(const int* __restrict__ forest, int* __restrict__ labels, unsigned n,
                      const unsigned* __restrict__ root_bits, const int* __restrict__ word_offsets,
                      const int* __restrict__ chunk_offsets) {
  unsigned pixel[kNumberPixels];
  int root[kNumberPixels];
#pragma unroll
  for (int k = 0; k < kNumberPixels; ++k) {
    pixel[k] = (blockIdx.x * kNumberPixels + k) * kNumberThreads + threadIdx.x;
    root[k] = pixel[k] < n ? forest[pixel[k]] : -1;  // -1: background, or past the end
  }
  unsigned walking = 0;  // bit k: pixel k's walk has not reached its root
#pragma unroll
  for (int k = 0; k < kNumberPixels; ++k) walking |= root[k] >= 0 ? 1u << k : 0u;
  while (walking != 0) {
#pragma unroll
    for (int k = 0; k < kNumberPixels; ++k) {
      if (!bit(walking, k)) continue;
      const int next = forest[root[k]];
      if (next == root[k]) walking &= ~(1u << k);
      root[k] = next;
    }
  }
#pragma unroll
  for (int k = 0; k < kNumberPixels; ++k) {
    if (pixel[k] >= n) continue;
    if (root[k] < 0) {
      labels[pixel[k]] = 0;
      continue;
    }
    const unsigned word = unsigned(root[k]) / 32, below = (1u << (root[k] % 32)) - 1u;
    labels[pixel[k]] =
        1 + chunk_offsets[unsigned(root[k]) / kChunk] + word_offsets[word] + __popc(root_bits[word] & below);
  }
}

}  // namespace
