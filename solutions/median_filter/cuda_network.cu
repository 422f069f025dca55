// cuda_network: the serial rung's idea on the GPU, for k = 5 and 7. Every
// column of k values under an output row is sorted once, in shared memory,
// and serves the k windows that hold it; each window's median is then the
// pruned selection network of median_networks.hpp over its sorted columns,
// in registers: 362 min/max per output at k = 7 where cuda's forgetful
// selection takes 698 (kernels/median_filter/median_filter.cuh,
// median_network). Other k run cuda's kernels.
#include "solutions/median_filter/cuda_whole_stack.cuh"

namespace ladder {
LADDER_REGISTER_RUNG(median_filter, cuda_network, median_filter::CudaMedianFilter<MedianKernel::network>);
}  // namespace ladder
