// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// cuda: the whole loop on the device (kernels/kappa_sigma.cuh), only a flag
// read back every few iterations. The host side is given: buffers, the
// launches of every iteration, the read of the done flag, the copies back.
// ==== end
#include <algorithm>
#include <cstddef>
#include <stdexcept>

// ==== exercise only
#include "kernels/kappa_sigma.cuh"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"
#include "bench/problems/kappa_sigma/given/clip.hpp"
// ==== end

namespace ladder {
namespace {

// ==== exercise only
class CudaKappaSigma final : public CudaRung {
  // ==== end
 public:
  // ==== exercise only
  explicit CudaKappaSigma(const RungContext& context)
      : CudaRung(context), kappa_(kappa_sigma::kappa_of(context.params)) {}
  // ==== end

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    // ==== exercise only
    image_ = inputs.at("image").view<float>();
    mask_ = outputs.at("mask").view<std::uint8_t>();
    statistics_ = outputs.at("statistics").view<double>();
    n_ = static_cast<unsigned>(image_.size());
    // ==== end
    // As many blocks as the device holds at once (a grid-stride loop covers
    // any n), one block sum each: the same grid for every pass.
    blocks_ = resident_blocks(clip_survey, kClipThreads, image_.size());
    // ==== exercise only
    d_image_ = device_buffer<float>(image_.size());
    d_mask_ = device_buffer<std::uint8_t>(mask_.size());
    d_statistics_ = device_buffer<double>(statistics_.size());
    // ==== end
    d_state_ = device_buffer<ClipState>(1);
    d_partials_ = device_buffer<double>(3 * std::size_t{blocks_});
    d_counts_ = device_buffer<unsigned>(2 * kClipBuckets);
    // clip_select clears the histograms after reading them: zero them once.
    LADDER_CUDA_CHECK(cudaMemsetAsync(d_counts_.data(), 0, d_counts_.bytes(), stream()));
    h_done_ = PinnedHostBuffer<unsigned>(1);  // pinned: the flag's copy is truly async
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream()));
    // ==== exercise only
#ifdef LADDER_TODO_CUDA_KERNEL  // kernels/kappa_sigma.cuh still holds its TODO line
    LADDER_TODO(LADDER_TODO_CUDA_KERNEL);
#endif
    // ==== end
  }

  // ==== exercise only
  void upload() override { copy_to_device(d_image_, image_); }
  // ==== end

  void compute() override {
    clip_start<<<1, 1, 0, stream()>>>(d_image_.data(), n_, d_state_.data());
    LADDER_CUDA_CHECK_LAUNCH();
    // Each iteration removes at least one value, so there are at most n + 1.
    for (std::size_t iterations = 0;; iterations += kIterationsPerCheck) {
      if (iterations > std::size_t{n_} + 1) throw std::logic_error("kappa_sigma cuda: the loop did not end");
      for (std::size_t k = 0; k < kIterationsPerCheck; ++k) iterate();
      // The only copy inside the loop: has it ended? (4 bytes)
      const auto* d_done = reinterpret_cast<const std::byte*>(d_state_.data()) + offsetof(ClipState, done);
      LADDER_CUDA_CHECK(cudaMemcpyAsync(h_done_.data(), d_done, sizeof(unsigned), cudaMemcpyDeviceToHost, stream()));
      LADDER_CUDA_CHECK(cudaStreamSynchronize(stream()));
      if (*h_done_.data()) break;
    }
    clip_mask<<<blocks_, kClipThreads, 0, stream()>>>(d_image_.data(), n_, d_state_.data(), d_mask_.data(),
                                                      d_statistics_.data());
    LADDER_CUDA_CHECK_LAUNCH();
    // ==== exercise only
  }

  void download() override {
    copy_to_host(mask_, d_mask_);
    copy_to_host(statistics_, d_statistics_);
    // ==== end
  }

 private:
  // Iterations queued between two reads of the done flag: the kernels of the
  // iterations after the last return at once (a few microseconds each).
  static constexpr std::size_t kIterationsPerCheck = 4;

  void iterate() {
    clip_survey<<<blocks_, kClipThreads, 0, stream()>>>(d_image_.data(), n_, d_state_.data(), d_partials_.data(),
                                                        d_counts_.data());
    LADDER_CUDA_CHECK_LAUNCH();
    select(0);
    for (int pass = 1; pass <= 2; ++pass) {
      clip_refine<<<blocks_, kClipThreads, 0, stream()>>>(d_image_.data(), n_, d_state_.data(), d_counts_.data(), pass);
      LADDER_CUDA_CHECK_LAUNCH();
      select(pass);
    }
  }

  void select(int pass) {
    clip_select<<<1, kClipThreads, 0, stream()>>>(d_state_.data(), d_partials_.data(), blocks_, d_counts_.data(), pass,
                                                  kappa_);
    LADDER_CUDA_CHECK_LAUNCH();
  }

  // ==== exercise only
  double kappa_;
  std::span<const float> image_;
  std::span<std::uint8_t> mask_;
  std::span<double> statistics_;
  unsigned n_ = 0;
  // ==== end
  unsigned blocks_ = 1;
  // ==== exercise only
  DeviceBuffer<float> d_image_;
  DeviceBuffer<std::uint8_t> d_mask_;
  DeviceBuffer<double> d_statistics_;
  // ==== end
  DeviceBuffer<ClipState> d_state_;
  DeviceBuffer<double> d_partials_;
  DeviceBuffer<unsigned> d_counts_;
  PinnedHostBuffer<unsigned> h_done_;
};

}  // namespace
LADDER_REGISTER_RUNG(kappa_sigma, cuda, CudaKappaSigma);
}  // namespace ladder
