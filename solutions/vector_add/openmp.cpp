// openmp: the serial loop split into one contiguous chunk per thread
// (schedule(static): the same chunks the generator's first touch used, so
// each thread reads memory its own socket holds).
#include "ladder/registry.hpp"

namespace ladder {
namespace {

class OpenMpVectorAdd final : public OpenMpRung {
 public:
  explicit OpenMpVectorAdd(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    a_ = inputs.at("a").view<float>().data();
    b_ = inputs.at("b").view<float>().data();
    c_ = outputs.at("c").view<float>().data();
    n_ = static_cast<long>(outputs.at("c").size());
  }

  void compute() override {
    const float* __restrict a = a_;
    const float* __restrict b = b_;
    float* __restrict c = c_;
#pragma omp parallel for simd schedule(static)
    for (long i = 0; i < n_; ++i) c[i] = a[i] + b[i];
  }

 private:
  const float* a_ = nullptr;
  const float* b_ = nullptr;
  float* c_ = nullptr;
  long n_ = 0;
};

}  // namespace
LADDER_REGISTER_RUNG(vector_add, openmp, OpenMpVectorAdd);
}  // namespace ladder
