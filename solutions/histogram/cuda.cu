// cuda: each block counts into 32 sub-histograms in shared memory, one per
// lane, so a warp's 32 atomics never collide; 16-byte loads and a grid-stride
// loop over the resident blocks (kernels/histogram/histogram_shared.cuh).
// Two sets of counts, used in turn: each call's kernel zeroes the set that
// the next call adds into, so that a call is one launch, not a memset and a
// launch.
#include "kernels/histogram/histogram_shared.cuh"
#include "ladder/cuda.cuh"

namespace ladder {
namespace {

class CudaHistogram final : public CudaRung {
 public:
  explicit CudaHistogram(const RungContext& context) : CudaRung(context) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    values_ = inputs.at("values").view<std::uint8_t>();
    counts_ = outputs.at("counts").view<std::uint32_t>();
    d_values_ = device_buffer<std::uint8_t>(values_.size());
    for (DeviceBuffer<std::uint32_t>& set : d_counts_) {
      set = device_buffer<std::uint32_t>(counts_.size());
      LADDER_CUDA_CHECK(cudaMemset(set.data(), 0, set.bytes()));  // the first call's set starts at zero
    }
    // Ask for the largest shared-memory carveout, so that all the blocks
    // the occupancy calculator counts on really fit on an SM at once.
    LADDER_CUDA_CHECK(cudaFuncSetAttribute(histogram_shared, cudaFuncAttributePreferredSharedMemoryCarveout,
                                           cudaSharedmemCarveoutMaxShared));
    // At least kVectorsPerThread 16-byte loads per thread: each block zeroes
    // and merges a 32 KiB table, which a few loads per thread would not pay for.
    blocks_ = resident_blocks(histogram_shared, kHistogramThreads, ceil_div(values_.size(), 16 * kVectorsPerThread));
  }

  void upload() override { copy_to_device(d_values_, values_); }
  void compute() override {
    // compute() runs again and again: each call adds into the set the call
    // before zeroed, and zeroes the other for the call after.
    current_ = 1 - current_;
    histogram_shared<<<blocks_, kHistogramThreads, 0, stream()>>>(d_values_.data(), values_.size(),
                                                                   d_counts_[current_].data(), d_counts_[1 - current_].data());
    LADDER_CUDA_CHECK_LAUNCH();
  }
  void download() override { copy_to_host(counts_, d_counts_[current_]); }

 private:
  std::span<const std::uint8_t> values_;
  std::span<std::uint32_t> counts_;
  DeviceBuffer<std::uint8_t> d_values_;
  static constexpr std::size_t kVectorsPerThread = 8;
  DeviceBuffer<std::uint32_t> d_counts_[2];  // this call's counts and the next call's, in turn
  int current_ = 1;                          // the set the last call added into (the first call uses 0)
  unsigned blocks_ = 1;
};

}  // namespace
LADDER_REGISTER_RUNG(histogram, cuda, CudaHistogram);
}  // namespace ladder
