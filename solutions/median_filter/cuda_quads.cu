// cuda_quads: cuda_network's selection shared wider, at k = 7. Four windows
// side by side share four of their seven sorted columns and each two of
// them six: what the four can share is merged once for all four (Batcher's
// odd-even merges of sorted columns, pruned to the ranks a median can be),
// each pair merges its two more shared columns into that, and each window
// its own column, 117 min/max per output where cuda_network's pairs take
// 189 (kernels/median_filter/median_filter.cuh, median_quads). The separable
// sorting networks of Adams (2021) share work this way across a tile of
// windows. Other k run cuda_network's kernels.
#include "solutions/median_filter/cuda_whole_stack.cuh"

namespace ladder {
LADDER_REGISTER_RUNG(median_filter, cuda_quads, median_filter::CudaMedianFilter<MedianKernel::quads>);
}  // namespace ladder
