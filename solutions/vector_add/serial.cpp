// serial: raw pointers the compiler may assume do not overlap (__restrict)
// and `omp simd`, so one instruction adds 8 floats (AVX2). The loop is
// memory-bound: one core's bandwidth, not its arithmetic, sets the time.
#include "ladder/registry.hpp"

namespace ladder {
namespace {

class SerialVectorAdd final : public HostRung {
 public:
  explicit SerialVectorAdd(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    a_ = inputs.at("a").view<float>().data();
    b_ = inputs.at("b").view<float>().data();
    c_ = outputs.at("c").view<float>().data();
    n_ = outputs.at("c").size();
  }

  void compute() override {
    const float* __restrict a = a_;
    const float* __restrict b = b_;
    float* __restrict c = c_;
#pragma omp simd
    for (std::size_t i = 0; i < n_; ++i) c[i] = a[i] + b[i];
  }

 private:
  const float* a_ = nullptr;
  const float* b_ = nullptr;
  float* c_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace
LADDER_REGISTER_RUNG(vector_add, serial, SerialVectorAdd);
}  // namespace ladder
