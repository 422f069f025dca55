// cuda_trial: the GPU lesson's answer, kept as the step before the sieve:
// one thread per number, trial division up to sqrt(k)
// (kernels/primes/primes_trial.cuh). n threads, no shared work.
#include "kernels/primes/primes_trial.cuh"
#include "ladder/cuda.cuh"

namespace ladder {
namespace {

class CudaTrialPrimes final : public CudaRung {
 public:
  explicit CudaTrialPrimes(const RungContext& context) : CudaRung(context) {}

  void prepare(const Arrays&, Arrays& outputs) override {
    flags_ = outputs.at("flags").view<std::uint8_t>();
    d_flags_ = device_buffer<std::uint8_t>(flags_.size());
    blocks_ = static_cast<unsigned>(ceil_div(flags_.size(), kThreadsPerBlock));
  }

  void compute() override {
    if (blocks_ == 0) return;  // n = 0: nothing to classify
    primes_trial<<<blocks_, kThreadsPerBlock, 0, stream()>>>(static_cast<std::uint32_t>(flags_.size()),
                                                             d_flags_.data());
    LADDER_CUDA_CHECK_LAUNCH();
  }
  void download() override { copy_to_host(flags_, d_flags_); }

 private:
  static constexpr int kThreadsPerBlock = 256;
  std::span<std::uint8_t> flags_;
  DeviceBuffer<std::uint8_t> d_flags_;
  unsigned blocks_ = 0;
};

}  // namespace
LADDER_REGISTER_RUNG(primes, cuda_trial, CudaTrialPrimes);
}  // namespace ladder
