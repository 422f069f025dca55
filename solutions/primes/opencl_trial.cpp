// opencl_trial: the GPU lesson's answer in OpenCL, kept as the step before
// the sieve: one work-item per number, trial division up to sqrt(k)
// (primes_trial in kernels/primes/primes.cl).
#include "ladder/opencl.hpp"

namespace ladder {
namespace {

class OpenClTrialPrimes final : public OpenClRung {
 public:
  explicit OpenClTrialPrimes(const RungContext& context) : OpenClRung(context) {}

  void prepare(const Arrays&, Arrays& outputs) override {
    flags_ = outputs.at("flags").view<std::uint8_t>();
    d_flags_ = device_buffer<std::uint8_t>(CL_MEM_WRITE_ONLY, flags_.size());
    kernel_ = build_kernel("primes/primes.cl", "primes_trial");
    set_arguments(kernel_, static_cast<cl_uint>(flags_.size()), d_flags_.get());
  }

  void compute() override {
    if (!flags_.empty()) enqueue(kernel_, flags_.size(), kWorkGroupSize);  // no zero-sized launch for n = 0
  }
  void download() override {
    if (!flags_.empty()) read(flags_, d_flags_);
  }

 private:
  static constexpr std::size_t kWorkGroupSize = 256;
  std::span<std::uint8_t> flags_;
  ClBuffer<std::uint8_t> d_flags_;
  cl_kernel kernel_ = nullptr;
};

}  // namespace
LADDER_REGISTER_RUNG(primes, opencl_trial, OpenClTrialPrimes);
}  // namespace ladder
