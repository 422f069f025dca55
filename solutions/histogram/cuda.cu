// cuda: each block counts into 32 sub-histograms in shared memory, one per
// lane, so a warp's 32 atomics never collide; 16-byte loads and a grid-stride
// loop over the resident blocks (kernels/histogram/histogram_shared.cuh).
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
    d_values_ = DeviceBuffer<std::uint8_t>(values_.size());
    d_counts_ = DeviceBuffer<std::uint32_t>(counts_.size());
    // Ask for the largest shared-memory carveout, so that all the blocks
    // the occupancy calculator counts on really fit on an SM at once.
    LADDER_CUDA_CHECK(cudaFuncSetAttribute(histogram_shared, cudaFuncAttributePreferredSharedMemoryCarveout,
                                           cudaSharedmemCarveoutMaxShared));
    blocks_ = resident_blocks(histogram_shared, kHistogramThreads, (values_.size() + 15) / 16);
  }

  void upload() override { copy_to_device(d_values_, values_); }
  void compute() override {
    // compute() runs again and again: the counts start from zero each time.
    LADDER_CUDA_CHECK(cudaMemsetAsync(d_counts_.data(), 0, d_counts_.bytes(), stream()));
    histogram_shared<<<blocks_, kHistogramThreads, 0, stream()>>>(d_values_.data(), values_.size(), d_counts_.data());
    LADDER_CUDA_CHECK_LAUNCH();
  }
  void download() override { copy_to_host(counts_, d_counts_); }

 private:
  std::span<const std::uint8_t> values_;
  std::span<std::uint32_t> counts_;
  DeviceBuffer<std::uint8_t> d_values_;
  DeviceBuffer<std::uint32_t> d_counts_;
  unsigned blocks_ = 1;
};

}  // namespace
LADDER_REGISTER_RUNG(histogram, cuda, Backend::cuda, CudaHistogram);
}  // namespace ladder
