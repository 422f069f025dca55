// opencl: the addition on an OpenCL device, one work-item per element.
// The host side is given; you write the kernel in kernels/vector_add.cl,
// and rerun `ladder check` without rebuilding: the track reads the file.
#include "ladder/opencl.hpp"

namespace ladder {
namespace {

class OpenClVectorAdd final : public OpenClRung {
 public:
  explicit OpenClVectorAdd(const RungContext& context) : OpenClRung(context) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    a_ = inputs.at("a").view<float>();
    b_ = inputs.at("b").view<float>();
    c_ = outputs.at("c").view<float>();
    d_a_ = ClBuffer<float>(context(), CL_MEM_READ_ONLY, a_.size());
    d_b_ = ClBuffer<float>(context(), CL_MEM_READ_ONLY, b_.size());
    d_c_ = ClBuffer<float>(context(), CL_MEM_WRITE_ONLY, c_.size());
    kernel_ = build_kernel("vector_add/vector_add.cl", "vector_add");
    set_arguments(kernel_, d_a_.get(), d_b_.get(), d_c_.get(), static_cast<cl_uint>(c_.size()));
  }

  void upload() override {
    write(d_a_, a_);
    write(d_b_, b_);
  }
  // n work-items, rounded up to whole work-groups: the kernel must check its index.
  void compute() override { enqueue(kernel_, c_.size(), kWorkGroupSize); }
  void download() override { read(c_, d_c_); }

 private:
  static constexpr std::size_t kWorkGroupSize = 256;
  std::span<const float> a_, b_;
  std::span<float> c_;
  ClBuffer<float> d_a_, d_b_, d_c_;
  cl_kernel kernel_ = nullptr;
};

}  // namespace
LADDER_REGISTER_RUNG(vector_add, opencl, Backend::opencl, OpenClVectorAdd);
}  // namespace ladder
