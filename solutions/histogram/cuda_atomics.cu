// cuda_atomics: the lesson's intermediate step, kept as a rung so that the
// gain of privatisation is visible: one thread per value, one global
// atomicAdd per value (kernels/histogram/histogram_atomics.cuh).
#include "kernels/histogram/histogram_atomics.cuh"
#include "ladder/cuda.cuh"

namespace ladder {
namespace {

class CudaAtomicsHistogram final : public CudaRung {
 public:
  explicit CudaAtomicsHistogram(const RungContext& context) : CudaRung(context) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    values_ = inputs.at("values").view<std::uint8_t>();
    counts_ = outputs.at("counts").view<std::uint32_t>();
    d_values_ = device_buffer<std::uint8_t>(values_.size());
    d_counts_ = device_buffer<std::uint32_t>(counts_.size());
    blocks_ = static_cast<unsigned>(ceil_div(values_.size(), kThreadsPerBlock));
  }

  void upload() override { copy_to_device(d_values_, values_); }
  void compute() override {
    // compute() runs again and again: the counts start from zero each time.
    LADDER_CUDA_CHECK(cudaMemsetAsync(d_counts_.data(), 0, d_counts_.bytes(), stream()));
    histogram_global_atomics<<<blocks_, kThreadsPerBlock, 0, stream()>>>(d_values_.data(), values_.size(),
                                                                         d_counts_.data());
    LADDER_CUDA_CHECK_LAUNCH();
  }
  void download() override { copy_to_host(counts_, d_counts_); }

 private:
  static constexpr int kThreadsPerBlock = 256;
  std::span<const std::uint8_t> values_;
  std::span<std::uint32_t> counts_;
  DeviceBuffer<std::uint8_t> d_values_;
  DeviceBuffer<std::uint32_t> d_counts_;
  unsigned blocks_ = 1;
};

}  // namespace
LADDER_REGISTER_RUNG(histogram, cuda_atomics, CudaAtomicsHistogram);
}  // namespace ladder
