// naive: the GPU lesson's CPU code, one number at a time, trial division by
// every factor from 2 up to k/2, stopping at the first divisor. Quadratic in
// n: the primes (no divisor found) pay k/2 divisions each.
//
// Given to both tracks: the participant's track builds this file too, so
// that there is always a working rung to compare against.
#include "ladder/registry.hpp"

namespace ladder {
namespace {

class NaivePrimes final : public HostRung {
 public:
  explicit NaivePrimes(const RungContext&) {}

  void prepare(const Arrays&, Arrays& outputs) override { flags_ = outputs.at("flags").view<std::uint8_t>(); }

  void compute() override {
    const std::uint32_t n = static_cast<std::uint32_t>(flags_.size());
    for (std::uint32_t k = 0; k < n; ++k) {
      // The lesson starts from "prime" for every k, which leaves 0 and 1
      // marked prime; they are not.
      std::uint8_t prime = k >= 2;
      for (std::uint32_t factor = 2; factor <= k / 2; ++factor) {
        if (k % factor == 0) {
          prime = 0;
          break;
        }
      }
      flags_[k] = prime;
    }
  }

 private:
  std::span<std::uint8_t> flags_;
};

}  // namespace
LADDER_REGISTER_RUNG(primes, naive, NaivePrimes);
}  // namespace ladder
