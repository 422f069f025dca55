// cuda_cublas: the library rung, cuBLAS's cublasSgemmStridedBatched: one
// call for the whole batch, as convolution's cuda_fft is cuFFT's. cuBLAS is
// column-major; a row-major c = a b is the column-major cᵀ = bᵀ aᵀ, so the
// call passes b first. Plain float32 arithmetic (CUBLAS_DEFAULT_MATH, no
// TF32), so it meets the same check as the other rungs.
#include <cublas_v2.h>

#include "ladder/cuda.cuh"
#include "ladder/error.hpp"

namespace ladder {
namespace {

#define LADDER_CUBLAS_CHECK(expr) cublas_check((expr), #expr, __FILE__, __LINE__)

// Every cuBLAS call goes through this, as every CUDA call goes through LADDER_CUDA_CHECK.
void cublas_check(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  throw DeviceError(std::string("cuBLAS call ") + call + " failed: " + cublasGetStatusName(status) + " (" +
                    std::to_string(static_cast<int>(status)) + ") at " + file + ":" + std::to_string(line));
}

class CublasBatchedMatmul final : public CudaRung {
 public:
  explicit CublasBatchedMatmul(const RungContext& context) : CudaRung(context) {}
  ~CublasBatchedMatmul() override {
    if (handle_ != nullptr) cublasDestroy(handle_);  // no check: destructors must not throw
  }

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    a_ = inputs.at("a").view<float>();
    b_ = inputs.at("b").view<float>();
    c_ = outputs.at("c").view<float>();
    const auto& shape = inputs.at("a").shape();
    batch_ = static_cast<int>(shape[0]), m_ = static_cast<int>(shape[1]), n_ = static_cast<int>(shape[2]);
    p_ = static_cast<int>(inputs.at("b").shape()[2]);
    d_a_ = device_buffer<float>(a_.size());
    d_b_ = device_buffer<float>(b_.size());
    d_c_ = device_buffer<float>(c_.size());
    // The handle is made once, here (untimed), and runs on the rung's stream.
    LADDER_CUBLAS_CHECK(cublasCreate(&handle_));
    LADDER_CUBLAS_CHECK(cublasSetStream(handle_, stream()));
    LADDER_CUBLAS_CHECK(cublasSetMathMode(handle_, CUBLAS_DEFAULT_MATH));
  }

  void upload() override {
    copy_to_device(d_a_, a_);
    copy_to_device(d_b_, b_);
  }

  void compute() override {
    const float one = 1, zero = 0;
    // Column-major: cᵀ (p × m) = bᵀ (p × n) · aᵀ (n × m), each pair strided.
    LADDER_CUBLAS_CHECK(cublasSgemmStridedBatched(handle_, CUBLAS_OP_N, CUBLAS_OP_N, p_, m_, n_, &one, d_b_.data(), p_,
                                                  static_cast<long long>(n_) * p_, d_a_.data(), n_,
                                                  static_cast<long long>(m_) * n_, &zero, d_c_.data(), p_,
                                                  static_cast<long long>(m_) * p_, batch_));
  }

  void download() override { copy_to_host(c_, d_c_); }

 private:
  std::span<const float> a_, b_;
  std::span<float> c_;
  int batch_ = 0, m_ = 0, n_ = 0, p_ = 0;
  DeviceBuffer<float> d_a_, d_b_, d_c_;
  cublasHandle_t handle_ = nullptr;
};

}  // namespace
LADDER_REGISTER_RUNG(batched_matmul, cuda_cublas, CublasBatchedMatmul);
}  // namespace ladder
