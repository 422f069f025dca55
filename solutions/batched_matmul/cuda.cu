// cuda: a thread per element of c for tiny matrices; for larger ones a block
// takes whole pairs into shared memory and each thread computes a 4 × 4 tile
// of c in registers (kernels/batched_matmul/batched_matmul.cuh). The rung
// chooses by the number of outputs of one pair: with fewer than 64 (the
// slides' 2 × 5 has 10), a 4 × 4 tile would be mostly padding.
#include "kernels/batched_matmul/batched_matmul.cuh"
#include "ladder/cuda.cuh"

namespace ladder {
namespace {

constexpr std::size_t kTilesFromOutputs = 64;  // m p at and above which a thread takes a 4 × 4 tile of c

class CudaBatchedMatmul final : public CudaRung {
 public:
  explicit CudaBatchedMatmul(const RungContext& context) : CudaRung(context) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    a_ = inputs.at("a").view<float>();
    b_ = inputs.at("b").view<float>();
    c_ = outputs.at("c").view<float>();
    const auto& shape = inputs.at("a").shape();
    batch_ = shape[0], m_ = shape[1], n_ = shape[2], p_ = inputs.at("b").shape()[2];
    d_a_ = device_buffer<float>(a_.size());
    d_b_ = device_buffer<float>(b_.size());
    d_c_ = device_buffer<float>(c_.size());
    tiles_ = m_ * p_ >= kTilesFromOutputs;
  }

  void upload() override {
    copy_to_device(d_a_, a_);
    copy_to_device(d_b_, b_);
  }

  void compute() override {
    const auto m = static_cast<unsigned>(m_), n = static_cast<unsigned>(n_), p = static_cast<unsigned>(p_);
    if (tiles_) {
      const MatmulPacking packing = matmul_packing(m, n, p);
      const auto blocks = ceil_div(static_cast<unsigned>(batch_), packing.pairs);
      batched_matmul_register_tiles<<<blocks, kMatmulThreads, packing.shared_floats * sizeof(float), stream()>>>(
          d_a_.data(), d_b_.data(), d_c_.data(), static_cast<unsigned>(batch_), m, n, p, packing);
    } else {
      const auto elements = static_cast<unsigned>(c_.size());
      batched_matmul_elements<<<ceil_div(elements, kMatmulThreads), kMatmulThreads, 0, stream()>>>(
          d_a_.data(), d_b_.data(), d_c_.data(), m, n, p, elements);
    }
    LADDER_CUDA_CHECK_LAUNCH();
  }

  void download() override { copy_to_host(c_, d_c_); }

 private:
  std::span<const float> a_, b_;
  std::span<float> c_;
  std::size_t batch_ = 0, m_ = 0, n_ = 0, p_ = 0;
  DeviceBuffer<float> d_a_, d_b_, d_c_;
  bool tiles_ = false;
};

}  // namespace
LADDER_REGISTER_RUNG(batched_matmul, cuda, CudaBatchedMatmul);
}  // namespace ladder
