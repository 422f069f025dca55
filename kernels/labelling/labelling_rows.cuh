#pragma once
// label_tile_rows: the cuda_rows rung's first kernel, in place of
// labelling.cuh's label_tiles; the other four kernels are the same.
//
// label_tiles lets 256 threads unite the pixels of a 32×32 tile all at
// once. On noise that is slow: the trees grow deep while every thread links
// into them, and a warp waits for its slowest lane's walk to a root
// (518 warp instructions a tile row on 4096² noise). Here one warp labels
// one tile a row at a time, as the serial rung's first pass scans an image:
//
//   - The row is 32 bits (a ballot), and each lane finds its run's first
//     and last pixel with bit operations.
//   - A run that touches no pixel of the row above (in the tile) starts a
//     new label: its first pixel. Otherwise its label is the root of the
//     first pixel above that it touches, handed to every lane of the run by
//     one shuffle; the other roots above it are united with that label, by
//     the same decision tree as the serial rung's (join_mask), so that most
//     unions are never attempted.
//   - The rows above are already labelled, so their trees are shallow: a
//     find takes a step or two, not a walk through a tree still growing.
//
// Unions and finds are labelling.cuh's, atomic in shared memory, as there.
// Each pixel leaves in forest[] the global index of its tile-local root (-1
// for background), as label_tiles does; merge_tile_borders then joins the
// tiles.
#include "kernels/labelling/labelling.cuh"

// Included by the cuda_rows rung only.
namespace {

constexpr int kRowTilesPerBlock = 4;  // one warp, one tile: 16 KiB of shared memory a block
constexpr unsigned kAllLanes = 0xFFFFFFFFu;

// One warp per tile (tiles numbered row by row, tiles_across per row);
// `tiles` tiles in all, the last block's spare warps leave at once.
template <int Connectivity>
__global__ void __launch_bounds__(kTileWidth* kRowTilesPerBlock)
    label_tile_rows(const unsigned char* __restrict__ image, int height, int width, int tiles_across, unsigned tiles,
                    int* __restrict__ forest) {
  __shared__ int parents[kRowTilesPerBlock][kTileHeight * kTileWidth];
  const unsigned tile = blockIdx.x * kRowTilesPerBlock + threadIdx.y;
  if (tile >= tiles) return;  // the whole warp: nothing below waits for the block
  int* parent = parents[threadIdx.y];
  const int lane = threadIdx.x;
  const int x0 = int(tile % tiles_across) * kTileWidth, y0 = int(tile / tiles_across) * kTileHeight, x = x0 + lane;
  const int rows = min(kTileHeight, height - y0);

  // The tile's rows as bits, lane r keeping row r's: the loads of several
  // rows in flight at once, then a ballot each.
  unsigned my_row_bits = 0;
#pragma unroll 8
  for (int row = 0; row < kTileHeight; ++row) {
    const bool foreground = row < rows && x < width && image[std::size_t(y0 + row) * width + x];
    const unsigned bits = __ballot_sync(kAllLanes, foreground);
    if (lane == row) my_row_bits = bits;
  }

  const unsigned below_me = (1u << lane) - 1u, above_me = ~below_me << 1;  // lane 31: nothing above
  unsigned up = 0;   // the row above's bits (row 0's neighbours above are merge_tile_borders')
  int up_label = 0;  // the label this lane's pixel in the row above was given
  for (int row = 0; row < rows; ++row) {
    const unsigned bits = __shfl_sync(kAllLanes, my_row_bits, row);
    const bool foreground = bit(bits, lane);
    // This lane's run: columns start .. end - 1.
    const unsigned gaps_before = ~bits & below_me, gaps_after = ~bits & above_me;
    const int start = gaps_before ? 32 - __clz(gaps_before) : 0;
    const int end = gaps_after ? __ffs(gaps_after) - 1 : kTileWidth;
    const int up_root = bit(up, lane) ? find_root<cuda::thread_scope_block>(parent, up_label) : -1;

    // The pixels above that the run touches: columns start .. end - 1 (4),
    // start - 1 .. end (8), within the tile.
    const int low = Connectivity == 8 ? max(start - 1, 0) : start;
    const int high = Connectivity == 8 ? min(end, kTileWidth - 1) : end - 1;
    const unsigned touched = up & (high == 31 ? ~0u : (2u << high) - 1u) & (~0u << low);
    const int from_above = __shfl_sync(kAllLanes, up_root, touched ? __ffs(touched) - 1 : 0);
    const int label = touched ? from_above : row * kTileWidth + start;
    // Nothing reads this row's entries until the next row: a plain store.
    if (foreground) parent[row * kTileWidth + lane] = label;

    // The other roots above the run, united with its label.
    const int left_root = __shfl_sync(kAllLanes, up_root, (lane + kTileWidth - 1) % kTileWidth);
    const int right_root = __shfl_sync(kAllLanes, up_root, (lane + 1) % kTileWidth);
    if (foreground && touched) {
      const bool a = lane > 0 && bit(up, lane - 1), b = bit(up, lane);
      const bool c = lane < kTileWidth - 1 && bit(up, lane + 1), d = lane > 0 && bit(bits, lane - 1);
      const unsigned join = join_mask<Connectivity>(a, b, c, d);
      if ((join & kJoinA) && left_root != label) unite<cuda::thread_scope_block>(parent, label, left_root);
      if ((join & kJoinB) && up_root != label) unite<cuda::thread_scope_block>(parent, label, up_root);
      if ((join & kJoinC) && right_root != label) unite<cuda::thread_scope_block>(parent, label, right_root);
    }
    up = bits, up_label = label;
    __syncwarp();  // this row's labels and unions are in before the next row reads them
  }

  for (int row = 0; row < rows; ++row) {
    const bool foreground = bit(__shfl_sync(kAllLanes, my_row_bits, row), lane);
    if (x >= width) continue;
    const int root = foreground ? find_root<cuda::thread_scope_block>(parent, row * kTileWidth + lane) : 0;
    forest[std::size_t(y0 + row) * width + x] =
        foreground ? (y0 + root / kTileWidth) * width + x0 + root % kTileWidth : -1;
  }
}

// number_in_one_pass: the cuda_rows rung's numbering, in place of
// count_roots, scan_chunk_counts and number_components: one pass over the
// forest instead of two, and no one-block scan between them.
//
// Each block takes a chunk of kChunk pixels, marks and counts its roots
// (as count_roots does), and publishes the count. Then it looks back over
// the chunks before it for the number of roots before its chunk
// (decoupled look-back, Merrill and Garland 2016): a chunk's status says
// either "counted" (its own roots) or "numbered" (and the roots before
// it), so a block adds the counts of the chunks back to the nearest
// numbered one, 32 chunks at a time, one per lane, and never waits for
// the whole scan. It publishes its chunk as numbered and numbers its
// pixels: a root in an earlier chunk is looked up once that chunk is
// numbered, which it will be, since it never waits for a later chunk.
//
// Chunks are handed out in the order blocks start (a ticket), not by
// blockIdx: every chunk before a block's is then held by a block that has
// started and can finish, so the waiting ends. The statuses and the ticket
// start at zero: the rung clears them before each call.

// A chunk's status, one 64-bit word: flag | roots before the chunk << 11 | roots in it.
constexpr unsigned long long kChunkCounted = 1ull << 62, kChunkNumbered = 2ull << 62;
constexpr int kChunkCountBits = 11;  // a chunk holds at most kChunk = 1024 roots

__device__ __forceinline__ unsigned chunk_roots(unsigned long long status) {
  return unsigned(status & ((1u << kChunkCountBits) - 1));
}
__device__ __forceinline__ unsigned roots_before_chunk(unsigned long long status) {
  return unsigned((status >> kChunkCountBits) & 0xFFFFFFFFu);
}
__device__ __forceinline__ cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> status_of(
    unsigned long long* statuses, unsigned chunk) {
  return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(statuses[chunk]);
}

// root_bits and word_offsets as count_roots leaves them, written here and
// read by later chunks' blocks after they acquire this chunk's status:
// plain loads then, not the read-only path, which need not see them.
__global__ void __launch_bounds__(kCountThreads)
    number_in_one_pass(const int* __restrict__ forest, int* __restrict__ labels, unsigned n, unsigned* root_bits,
                       int* word_offsets, unsigned long long* statuses, unsigned* next_chunk) {
  constexpr int kPixelsPerThread = kChunk / kCountThreads, kWarps = kCountThreads / 32, kWords = kChunk / 32;
  __shared__ unsigned ticket;
  __shared__ unsigned my_root_bits[kWords];
  __shared__ int my_word_offsets[kWords];
  __shared__ unsigned roots_before;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (threadIdx.x == 0) ticket = atomicAdd(next_chunk, 1u);
  __syncthreads();  // the ticket is in
  const unsigned chunk = ticket;

  // The roots of this chunk, as count_roots marks them.
  int parents[kPixelsPerThread];
#pragma unroll
  for (int k = 0; k < kPixelsPerThread; ++k) {
    const unsigned i = chunk * kChunk + k * kCountThreads + threadIdx.x;
    parents[k] = i < n ? forest[i] : -1;
    const unsigned bits = __ballot_sync(0xFFFFFFFFu, parents[k] == int(i));
    if (lane == 0) {
      root_bits[i / 32] = bits;
      my_root_bits[k * kWarps + warp] = bits;
    }
  }
  __syncthreads();  // the chunk's root bits are in
  if (warp == 0) {
    int total;
    const int offset = warp_exclusive_sum(__popc(my_root_bits[lane]), &total);
    word_offsets[chunk * kWords + lane] = offset;
    my_word_offsets[lane] = offset;
    __syncwarp();
    if (lane == 0) {
      __threadfence();  // the chunk's root bits and offsets are out before its count says so
      status_of(statuses, chunk).store(kChunkCounted | unsigned(total), cuda::memory_order_release);
    }

    // The look-back: lane l reads the status of chunk newest - l, waiting
    // until that chunk has at least counted its roots.
    unsigned before = 0;
    for (int newest = int(chunk) - 1;; newest -= 32) {
      const int c = newest - lane;
      unsigned long long status = kChunkNumbered;  // before chunk 0: nothing
      if (c >= 0)
        while ((status = status_of(statuses, c).load(cuda::memory_order_acquire)) == 0) {
        }
      const unsigned numbered = __ballot_sync(0xFFFFFFFFu, (status & kChunkNumbered) != 0);  // not the int of bit 63: 0
      const int nearest = numbered ? __ffs(numbered) - 1 : 32;  // the first numbered chunk back, if any
      unsigned add = lane < nearest ? chunk_roots(status) : 0u;
      if (lane == nearest) add = roots_before_chunk(status) + chunk_roots(status);
      for (int offset = 16; offset > 0; offset /= 2) add += __shfl_xor_sync(0xFFFFFFFFu, add, offset);
      before += add;
      if (numbered) break;
    }
    if (lane == 0) {
      roots_before = before;
      status_of(statuses, chunk)
          .store(kChunkNumbered | (static_cast<unsigned long long>(before) << kChunkCountBits) | unsigned(total),
                 cuda::memory_order_release);
    }
  }
  __syncthreads();  // roots_before is in

  // Each pixel's number: 1 + the roots before its root.
#pragma unroll
  for (int k = 0; k < kPixelsPerThread; ++k) {
    const unsigned i = chunk * kChunk + k * kCountThreads + threadIdx.x;
    if (i >= n) continue;
    int root = parents[k];
    if (root < 0) {
      labels[i] = 0;
      continue;
    }
    for (int next; (next = forest[root]) != root;) root = next;
    const unsigned root_chunk = unsigned(root) / kChunk, word = unsigned(root) / 32, below = (1u << (root % 32)) - 1u;
    unsigned number;
    if (root_chunk == chunk) {
      number = roots_before + my_word_offsets[word % kWords] + __popc(my_root_bits[word % kWords] & below);
    } else {
      unsigned long long status;
      while (!((status = status_of(statuses, root_chunk).load(cuda::memory_order_acquire)) & kChunkNumbered)) {
      }
      number = roots_before_chunk(status) + word_offsets[word] + __popc(root_bits[word] & below);
    }
    labels[i] = int(1 + number);
  }
}

}  // namespace
