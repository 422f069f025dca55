// cuda: the whole stack on the device, one launch. Each block loads a tile
// and its reflected halo into shared memory once; each thread selects the
// median of two vertically adjacent windows by forgetful selection in
// registers, reducing the k(k - 1) values they share only once
// (kernels/median_filter/median_filter.cuh). The host side, shared with
// cuda_network, is in cuda_whole_stack.cuh. A stack larger than the
// device's memory is cuda_streams' job.
#include "solutions/median_filter/cuda_whole_stack.cuh"

namespace ladder {
LADDER_REGISTER_RUNG(median_filter, cuda, median_filter::CudaMedianFilter<MedianKernel::forgetful_selection>);
}  // namespace ladder
