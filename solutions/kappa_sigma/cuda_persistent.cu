// cuda_persistent: the cuda rung's passes in one kernel launch
// (kernels/kappa_sigma/kappa_sigma_persistent.cuh). The cuda rung queues
// five kernels per iteration, two of them one-block kernels that pick the
// next digit of the median, and reads a flag back every few iterations:
// most of its time is launches and one-block work, not the data. Here the
// grid stays resident for the whole clip and waits at a grid-wide barrier
// between passes; every block picks the digit itself from the grid's
// histogram. One launch, nothing read back until the mask is written; and
// after the first iteration, the refines read only the values each survey
// set aside near the last median, or, where the median's bucket is small,
// one pass gathers it and every block finds the last digits on its own;
// once the bounds settle, the surveys read only the edges of the kept
// values, the core's totals kept from the last survey of the image, and
// the median's bucket stays in shared memory while it lies in that core.
#include <algorithm>
#include <stdexcept>

#include "kernels/kappa_sigma/kappa_sigma_persistent.cuh"
#include "solutions/kappa_sigma/device_sky.cuh"

namespace ladder {
namespace {

class CudaPersistentKappaSigma final : public kappa_sigma::DeviceSkyRung {
 public:
  using DeviceSkyRung::DeviceSkyRung;

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    DeviceSkyRung::prepare(inputs, outputs);
    // grid.sync() needs every block on the device at once: a cooperative
    // launch of at most the blocks that fit (resident_blocks counts them).
    if (!properties().cooperativeLaunch)
      throw std::runtime_error("kappa_sigma cuda_persistent: " + device_name() + " cannot launch cooperative kernels");
    // One block per SM, two on large images. Each pass ends at a barrier
    // and a select in every block, so more blocks cost more per pass; they
    // pay only when each thread has many values. Measured on the H200: one
    // block per SM 171 us on the 2048² sky (two: 190 us), two per SM 1.97 ms
    // on the 8192² sky (one: 2.32 ms).
    const unsigned per_sm = image_.size() > (std::size_t{1} << 24) ? 2 : 1;
    blocks_ = std::min(resident_blocks(clip_persistent, kPersistentThreads, (image_.size() + 3) / 4),
                       per_sm * static_cast<unsigned>(properties().multiProcessorCount));
    d_partials_ = device_buffer<double>(kPartials * std::size_t{blocks_});
    d_histograms_ = device_buffer<unsigned>(3 * std::size_t{kPersistentHistogram});
    // Each block's room for the values its surveys set aside for the
    // refines and for its edges; the median's bucket gathered from every
    // block; the core's histograms.
    candidates_per_block_ = candidate_room(n_, blocks_);
    d_candidates_ = device_buffer<float>(blocks_ * candidates_per_block_);
    d_edges_ = device_buffer<float>(blocks_ * candidates_per_block_);
    d_gathered_ = device_buffer<unsigned>(kGatherCapacity);
    d_gathered_counts_ = device_buffer<unsigned>(3);
    d_core_histograms_ = device_buffer<unsigned>(2 * std::size_t{kClipBuckets});
  }

  void compute() override {
    const float* image = d_image_.data();
    double* partials = d_partials_.data();
    unsigned* histograms = d_histograms_.data();
    ClipScratch scratch{d_candidates_.data(), d_edges_.data(),           candidates_per_block_,
                        d_gathered_.data(),   d_gathered_counts_.data(), d_core_histograms_.data()};
    std::uint8_t* mask = d_mask_.data();
    double* statistics = d_statistics_.data();
    void* arguments[] = {&image, &n_, &kappa_, &partials, &histograms, &scratch, &mask, &statistics};
    LADDER_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(clip_persistent), blocks_,
                                                  kPersistentThreads, arguments, 0, stream()));
  }

 private:
  unsigned blocks_ = 1;
  std::size_t candidates_per_block_ = 0;
  DeviceBuffer<double> d_partials_;
  DeviceBuffer<unsigned> d_histograms_;
  DeviceBuffer<float> d_candidates_;
  DeviceBuffer<float> d_edges_;
  DeviceBuffer<unsigned> d_gathered_;
  DeviceBuffer<unsigned> d_gathered_counts_;
  DeviceBuffer<unsigned> d_core_histograms_;
};

}  // namespace
LADDER_REGISTER_RUNG(kappa_sigma, cuda_persistent, CudaPersistentKappaSigma);
}  // namespace ladder
