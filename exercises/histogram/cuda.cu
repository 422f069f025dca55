// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// cuda: the histogram as a CUDA kernel (kernels/histogram_shared.cuh), one
// histogram per block in shared memory. The host side is given: buffers,
// copies, zeroing the counts, the launch.
#include "kernels/histogram_shared.cuh"
// ==== end
#include "ladder/cuda.cuh"
// ==== exercise only
#include "ladder/error.hpp"
// ==== end

namespace ladder {
namespace {

class CudaHistogram final : public CudaRung {
 public:
  explicit CudaHistogram(const RungContext& context) : CudaRung(context) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    values_ = inputs.at("values").view<std::uint8_t>();
    counts_ = outputs.at("counts").view<std::uint32_t>();
    d_values_ = device_buffer<std::uint8_t>(values_.size());
    // ==== exercise only
    d_counts_ = device_buffer<std::uint32_t>(counts_.size());
    // Only as many blocks as fit on the GPU at once (fewer for tiny n):
    // the kernel's threads stride over the values by the grid's size.
    blocks_ = resident_blocks(histogram_shared, kThreadsPerBlock, values_.size());
#ifdef LADDER_TODO_CUDA_KERNEL  // kernels/histogram_shared.cuh still holds its TODO line
    LADDER_TODO(LADDER_TODO_CUDA_KERNEL);
#endif
    // ==== end
  }

  void upload() override { copy_to_device(d_values_, values_); }
  void compute() override {
    // ==== exercise only
    // compute() runs again and again: the counts start from zero each time.
    LADDER_CUDA_CHECK(cudaMemsetAsync(d_counts_.data(), 0, d_counts_.bytes(), stream()));
    histogram_shared<<<blocks_, kThreadsPerBlock, 0, stream()>>>(d_values_.data(), values_.size(), d_counts_.data());
    // ==== end
    LADDER_CUDA_CHECK_LAUNCH();
  }
  // ==== exercise only
  void download() override { copy_to_host(counts_, d_counts_); }
  // ==== end

 private:
  // ==== exercise only
  static constexpr int kThreadsPerBlock = 256;
  // ==== end
  std::span<const std::uint8_t> values_;
  std::span<std::uint32_t> counts_;
  DeviceBuffer<std::uint8_t> d_values_;
  // ==== exercise only
  DeviceBuffer<std::uint32_t> d_counts_;
  // ==== end
  unsigned blocks_ = 1;
};

}  // namespace
LADDER_REGISTER_RUNG(histogram, cuda, CudaHistogram);
}  // namespace ladder
