#pragma once
// What each rank's GPU computes in the cuda_nccl rungs: cuda_network's
// kernels (launch_median_filter) over this rank's frames, already on the
// GPU, then waited for.
#include <cstddef>

#include "bench/problems/median_filter/median_filter.hpp"
#include "kernels/median_filter/median_filter.cuh"
#include "ladder/cuda.cuh"
#include "solutions/median_filter/frames_of_ranks.hpp"

namespace ladder::median_filter {

inline void filter_frames_on_gpu(const FramesOfRanks& frames, const Settings& settings, const std::byte* d_image,
                                 std::byte* d_output, cudaStream_t stream) {
  const MedianSettings kernel_settings{settings.size, settings.remove_outlier, settings.bright, settings.diff};
  const Stack mine = frames.mine();
  with_pixel_type(frames.dtype, [&](auto tag) {
    using T = decltype(tag);
    launch_median_filter(reinterpret_cast<const T*>(d_image), reinterpret_cast<T*>(d_output), mine.frames,
                         int(mine.height), int(mine.width), kernel_settings, stream, MedianKernel::network);
  });
  LADDER_CUDA_CHECK_LAUNCH();
  LADDER_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace ladder::median_filter
