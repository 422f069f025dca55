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
// for background), and the tile-local roots their bits, as label_tiles
// does; merge_tile_borders then joins the tiles.
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
                    int* __restrict__ forest, unsigned* __restrict__ root_bits) {
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
    const int t = row * kTileWidth + lane;
    const int root = foreground ? find_root<cuda::thread_scope_block>(parent, t) : 0;
    if (x < width)
      forest[std::size_t(y0 + row) * width + x] =
          foreground ? (y0 + root / kTileWidth) * width + x0 + root % kTileWidth : -1;
    mark_roots(root_bits, std::size_t(y0 + row) * width + x0, foreground && root == t, lane);
  }
}

}  // namespace
