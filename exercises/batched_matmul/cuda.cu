// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// cuda: one thread per element of c (kernels/batched_matmul.cuh), the whole
// batch in one grid. The host side is given: buffers, copies, the launch.
#include "kernels/batched_matmul.cuh"
// ==== end
#include "ladder/cuda.cuh"
// ==== exercise only
#include "ladder/error.hpp"
// ==== end

namespace ladder {
namespace {

class CudaBatchedMatmul final : public CudaRung {
 public:
  explicit CudaBatchedMatmul(const RungContext& context) : CudaRung(context) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    a_ = inputs.at("a").view<float>();
    b_ = inputs.at("b").view<float>();
    c_ = outputs.at("c").view<float>();
    const auto& shape = inputs.at("a").shape();
    // ==== exercise only
    m_ = static_cast<unsigned>(shape[1]), n_ = static_cast<unsigned>(shape[2]);
    p_ = static_cast<unsigned>(inputs.at("b").shape()[2]);
    // ==== end
    d_a_ = device_buffer<float>(a_.size());
    d_b_ = device_buffer<float>(b_.size());
    d_c_ = device_buffer<float>(c_.size());
    // ==== exercise only
    blocks_ = static_cast<unsigned>(ceil_div(c_.size(), kThreadsPerBlock));
#ifdef LADDER_TODO_CUDA_KERNEL  // kernels/batched_matmul.cuh still holds its TODO line
    LADDER_TODO(LADDER_TODO_CUDA_KERNEL);
#endif
    // ==== end
  }

  void upload() override {
    copy_to_device(d_a_, a_);
    copy_to_device(d_b_, b_);
  }
  void compute() override {
    // ==== exercise only
    batched_matmul_elements<<<blocks_, kThreadsPerBlock, 0, stream()>>>(d_a_.data(), d_b_.data(), d_c_.data(), m_,
                                                                        n_, p_, static_cast<unsigned>(c_.size()));
    // ==== end
    LADDER_CUDA_CHECK_LAUNCH();
  }
  void download() override { copy_to_host(c_, d_c_); }

 private:
  // ==== exercise only
  static constexpr int kThreadsPerBlock = 256;
  // ==== end
  std::span<const float> a_, b_;
  std::span<float> c_;
  // ==== exercise only
  unsigned m_ = 0, n_ = 0, p_ = 0;
  // ==== end
  DeviceBuffer<float> d_a_, d_b_, d_c_;
  // ==== exercise only
  unsigned blocks_ = 1;
  // ==== end
};

}  // namespace
LADDER_REGISTER_RUNG(batched_matmul, cuda, CudaBatchedMatmul);
}  // namespace ladder
