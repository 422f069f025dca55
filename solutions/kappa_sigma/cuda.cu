// cuda: the whole loop on the device (kernels/kappa_sigma/kappa_sigma.cuh,
// the OpenCL rung's kernels in CUDA). The kept values are those strictly
// inside one interval, so each pass reads the image and tests the interval:
// no mask and no compaction between iterations. The median is a radix
// select over the float bit patterns (three histogram passes, no sort), the
// moments block sums in double added by one block in a fixed order, so that
// every run gives the same bits. Per iteration five kernels are queued and
// nothing is copied; every few iterations the host reads one flag.
#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "kernels/kappa_sigma/kappa_sigma.cuh"
#include "solutions/kappa_sigma/device_sky.cuh"

namespace ladder {
namespace {

class CudaKappaSigma final : public kappa_sigma::DeviceSkyRung {
 public:
  using DeviceSkyRung::DeviceSkyRung;

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    DeviceSkyRung::prepare(inputs, outputs);
    // As many blocks as the device holds at once (a grid-stride loop covers
    // any n), one block sum each: the same grid for every pass.
    blocks_ = resident_blocks(clip_survey, kClipThreads, image_.size());
    d_state_ = device_buffer<ClipState>(1);
    d_partials_ = device_buffer<double>(3 * std::size_t{blocks_});
    d_counts_ = device_buffer<unsigned>(2 * kClipBuckets);
    // clip_select clears the histograms after reading them: zero them once.
    LADDER_CUDA_CHECK(cudaMemsetAsync(d_counts_.data(), 0, d_counts_.bytes(), stream()));
    h_done_ = PinnedHostBuffer<unsigned>(1);  // pinned: the flag's copy is truly async
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream()));
  }

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

  unsigned blocks_ = 1;
  DeviceBuffer<ClipState> d_state_;
  DeviceBuffer<double> d_partials_;
  DeviceBuffer<unsigned> d_counts_;
  PinnedHostBuffer<unsigned> h_done_;
};

}  // namespace
LADDER_REGISTER_RUNG(kappa_sigma, cuda, CudaKappaSigma);
}  // namespace ladder
