// cuda: the histogram as a CUDA kernel (kernels/histogram_shared.cuh), one
// histogram per block in shared memory. The host side is given: buffers,
// copies, zeroing the counts, the launch.
#include "kernels/histogram_shared.cuh"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"

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
    // Only as many blocks as fit on the GPU at once (fewer for tiny n):
    // the kernel's threads stride over the values by the grid's size.
    blocks_ = resident_blocks(histogram_shared, kThreadsPerBlock, values_.size());
#ifdef LADDER_TODO_CUDA_KERNEL  // kernels/histogram_shared.cuh still holds its TODO line
    LADDER_TODO(LADDER_TODO_CUDA_KERNEL);
#endif
  }

  void upload() override { copy_to_device(d_values_, values_); }
  void compute() override {
    // compute() runs again and again: the counts start from zero each time.
    LADDER_CUDA_CHECK(cudaMemsetAsync(d_counts_.data(), 0, d_counts_.bytes(), stream()));
    histogram_shared<<<blocks_, kThreadsPerBlock, 0, stream()>>>(d_values_.data(), values_.size(), d_counts_.data());
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
LADDER_REGISTER_RUNG(histogram, cuda, CudaHistogram);
}  // namespace ladder
