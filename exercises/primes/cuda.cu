// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// cuda: the segmented sieve as a CUDA kernel (kernels/primes_sieve.cuh), one
// segment per block in shared memory. The host side is given: the base
// primes (found once here), the buffers, the launch, the copy back.
// ==== end
#include <algorithm>
#include <cmath>
#include <vector>

// ==== exercise only
#include "kernels/primes_sieve.cuh"
// ==== end
#include "ladder/cuda.cuh"
// ==== exercise only
#include "ladder/error.hpp"
// ==== end

namespace ladder {
namespace {

class CudaPrimes final : public CudaRung {
 public:
  explicit CudaPrimes(const RungContext& context) : CudaRung(context) {}

  void prepare(const Arrays&, Arrays& outputs) override {
    flags_ = outputs.at("flags").view<std::uint8_t>();
    const std::uint64_t odds = (flags_.size() + 1) / 2;
    d_flags_ = device_buffer<std::uint8_t>(flags_.size());
    blocks_ = static_cast<unsigned>(ceil_div(odds, kSieveSegment));

    // The base primes 3 <= p <= sqrt(n) (at most 6541 of them), found once
    // here on the host with a plain sieve: microseconds, and a table that
    // depends on n alone, like a compiled kernel.
    const auto root = static_cast<std::uint32_t>(std::sqrt(static_cast<double>(2 * odds))) + 1;
    std::vector<std::uint8_t> composite(root + 1, 0);
    std::vector<std::uint32_t> primes;
    for (std::uint32_t p = 3; p <= root; p += 2) {
      if (composite[p]) continue;
      primes.push_back(p);
      for (std::uint64_t m = std::uint64_t{p} * p; m <= root; m += 2 * p) composite[m] = 1;
    }
    prime_count_ = static_cast<std::uint32_t>(primes.size());
    small_count_ =
        static_cast<std::uint32_t>(std::lower_bound(primes.begin(), primes.end(), kSieveThreads) - primes.begin());
    d_primes_ = device_buffer<std::uint32_t>(primes.size());
    LADDER_CUDA_CHECK(
        cudaMemcpy(d_primes_.data(), primes.data(), primes.size() * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
    // ==== exercise only
#ifdef LADDER_TODO_CUDA_KERNEL  // kernels/primes_sieve.cuh still holds its TODO line
    LADDER_TODO(LADDER_TODO_CUDA_KERNEL);
#endif
    // ==== end
  }

  void compute() override {
    if (blocks_ == 0) return;  // n = 0: no flags
    primes_sieve<<<blocks_, kSieveThreads, 0, stream()>>>(d_primes_.data(), small_count_, prime_count_, flags_.size(),
                                                          d_flags_.data());
    LADDER_CUDA_CHECK_LAUNCH();
  }
  void download() override { copy_to_host(flags_, d_flags_); }

 private:
  std::span<std::uint8_t> flags_;
  DeviceBuffer<std::uint8_t> d_flags_;
  DeviceBuffer<std::uint32_t> d_primes_;
  std::uint32_t small_count_ = 0;  // the primes below kSieveThreads, shared by a whole block each
  std::uint32_t prime_count_ = 0;
  unsigned blocks_ = 0;
};

}  // namespace
LADDER_REGISTER_RUNG(primes, cuda, CudaPrimes);
}  // namespace ladder
