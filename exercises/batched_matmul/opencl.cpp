// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// opencl: one work-item per element of c, the whole batch in one NDRange.
// The host side is given; you write the kernel in kernels/batched_matmul.cl,
// and rerun `ladder check` without rebuilding: the track reads the file.
// ==== end
#include "ladder/opencl.hpp"

namespace ladder {
namespace {

class OpenClBatchedMatmul final : public OpenClRung {
 public:
  explicit OpenClBatchedMatmul(const RungContext& context) : OpenClRung(context) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    a_ = inputs.at("a").view<float>();
    b_ = inputs.at("b").view<float>();
    c_ = outputs.at("c").view<float>();
    const auto& a = inputs.at("a").shape();
    d_a_ = device_buffer<float>(CL_MEM_READ_ONLY, a_.size());
    d_b_ = device_buffer<float>(CL_MEM_READ_ONLY, b_.size());
    d_c_ = device_buffer<float>(CL_MEM_WRITE_ONLY, c_.size());
    // ==== exercise only
    kernel_ = build_kernel("batched_matmul/batched_matmul.cl", "batched_matmul");
    set_arguments(kernel_, d_a_.get(), d_b_.get(), d_c_.get(), static_cast<cl_uint>(a[1]), static_cast<cl_uint>(a[2]),
                  static_cast<cl_uint>(inputs.at("b").shape()[2]), static_cast<cl_uint>(c_.size()));
    // ==== end
  }

  void upload() override {
    write(d_a_, a_);
    write(d_b_, b_);
  }
  // ==== exercise only
  // One work-item per element of c, rounded up to whole work-groups: the kernel must check its index.
  void compute() override { enqueue(kernel_, c_.size(), kWorkGroupSize); }
  // ==== end
  void download() override { read(c_, d_c_); }

 private:
  static constexpr std::size_t kWorkGroupSize = 256;
  std::span<const float> a_, b_;
  std::span<float> c_;
  ClBuffer<float> d_a_, d_b_, d_c_;
  cl_kernel kernel_ = nullptr;
};

}  // namespace
LADDER_REGISTER_RUNG(batched_matmul, opencl, OpenClBatchedMatmul);
}  // namespace ladder
