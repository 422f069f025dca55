// opencl: three kernels, one per kind of shape (kernels/batched_matmul/
// batched_matmul.cl): one work-item per element of c for tiny pairs, the
// whole batch in one NDRange; a work-group per pair with both matrices in
// local memory once a pair has 64 outputs or more; and each work-item a
// 4 × 4 tile of c in private memory once it has 1024 (32 × 32).
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
    const auto m = static_cast<cl_uint>(a[1]), n = static_cast<cl_uint>(a[2]);
    const auto p = static_cast<cl_uint>(inputs.at("b").shape()[2]);
    pairs_ = a[0];
    tiles_ = std::size_t{m} * p >= kTilesFromOutputs;
    if (std::size_t{m} * p >= kRegisterTilesFromOutputs) {
      kernel_ = build_kernel("batched_matmul/batched_matmul.cl", "batched_matmul_register_tiles");
      set_arguments(kernel_, d_a_.get(), d_b_.get(), d_c_.get(), m, n, p);
      // a[q], then b[q] padded to p4 columns from a multiple of 4 floats on (see the kernel).
      const std::size_t b_at = (std::size_t{m} * n + 3) / 4 * 4, p4 = (std::size_t{p} + 3) / 4 * 4;
      LADDER_CL_CHECK(clSetKernelArg(kernel_, 6, (b_at + n * p4) * sizeof(float), nullptr));
    } else if (tiles_) {
      kernel_ = build_kernel("batched_matmul/batched_matmul.cl", "batched_matmul_tiles");
      set_arguments(kernel_, d_a_.get(), d_b_.get(), d_c_.get(), m, n, p);
      // The last argument is local memory: a size and no value.
      LADDER_CL_CHECK(clSetKernelArg(kernel_, 6, (std::size_t{m} * n + std::size_t{n} * p) * sizeof(float), nullptr));
    } else {
      kernel_ = build_kernel("batched_matmul/batched_matmul.cl", "batched_matmul");
      set_arguments(kernel_, d_a_.get(), d_b_.get(), d_c_.get(), m, n, p, static_cast<cl_uint>(c_.size()));
    }
  }

  void upload() override {
    write(d_a_, a_);
    write(d_b_, b_);
  }
  void compute() override {
    if (tiles_)
      enqueue(kernel_, pairs_ * kWorkGroupSize, kWorkGroupSize);  // a group per pair
    else
      enqueue(kernel_, c_.size(), kWorkGroupSize);
  }
  void download() override { read(c_, d_c_); }

 private:
  static constexpr std::size_t kWorkGroupSize = 256;
  static constexpr std::size_t kTilesFromOutputs = 64;            // m p at and above which a pair gets a group
  static constexpr std::size_t kRegisterTilesFromOutputs = 1024;  // ... and each work-item a 4 × 4 tile of c
  std::span<const float> a_, b_;
  std::span<float> c_;
  ClBuffer<float> d_a_, d_b_, d_c_;
  cl_kernel kernel_ = nullptr;
  std::size_t pairs_ = 0;
  bool tiles_ = false;
};

}  // namespace
LADDER_REGISTER_RUNG(batched_matmul, opencl, OpenClBatchedMatmul);
}  // namespace ladder
