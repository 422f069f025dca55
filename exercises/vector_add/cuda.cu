// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// cuda: the addition as a CUDA kernel (kernels/vector_add.cuh), one thread
// per element. The host side is given: buffers, copies, the launch.
#include "kernels/vector_add.cuh"
// ==== end
#include "ladder/cuda.cuh"
// ==== exercise only
#include "ladder/error.hpp"
// ==== end

namespace ladder {
namespace {

class CudaVectorAdd final : public CudaRung {
 public:
  explicit CudaVectorAdd(const RungContext& context) : CudaRung(context) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    a_ = inputs.at("a").view<float>();
    b_ = inputs.at("b").view<float>();
    c_ = outputs.at("c").view<float>();
    d_a_ = device_buffer<float>(a_.size());
    d_b_ = device_buffer<float>(b_.size());
    d_c_ = device_buffer<float>(c_.size());
    // ==== exercise only
    blocks_ = static_cast<unsigned>(ceil_div(c_.size(), kThreadsPerBlock));
#ifdef LADDER_TODO_CUDA_KERNEL  // kernels/vector_add.cuh still holds its TODO line
    LADDER_TODO(LADDER_TODO_CUDA_KERNEL);
#endif
    // ==== end
  }

  void upload() override {
    copy_to_device(d_a_, a_);
    copy_to_device(d_b_, b_);
  }
  void compute() override {
    vector_add<<<blocks_, kThreadsPerBlock, 0, stream()>>>(d_a_.data(), d_b_.data(), d_c_.data(), c_.size());
    LADDER_CUDA_CHECK_LAUNCH();
  }
  void download() override { copy_to_host(c_, d_c_); }

 private:
  static constexpr int kThreadsPerBlock = 256;
  std::span<const float> a_, b_;
  std::span<float> c_;
  DeviceBuffer<float> d_a_, d_b_, d_c_;
  unsigned blocks_ = 1;
};

}  // namespace
LADDER_REGISTER_RUNG(vector_add, cuda, CudaVectorAdd);
}  // namespace ladder
