// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// serial: a sieve of Eratosthenes instead of naive's trial division, over
// the odd numbers only, a segment at a time: each segment small enough to
// stay in the L1 cache while the primes <= sqrt(n) cross out their multiples.
#include <cstdint>
#include <span>

#include "ladder/error.hpp"
#include "ladder/registry.hpp"
// ==== end

namespace ladder {
namespace {

// ==== exercise only
class SerialPrimes final : public HostRung {
  // ==== end
 public:
  // ==== exercise only
  explicit SerialPrimes(const RungContext&) {}

  void prepare(const Arrays&, Arrays& outputs) override { flags_ = outputs.at("flags").view<std::uint8_t>(); }
  // ==== end

  void compute() override {
    // ==== yours
    // TODO: flags_[k] = 1 exactly when k is prime, for k in [0, n) with
    // n = flags_.size() (n may be 0, 1, 2 or odd) (task sheet, step 1).
    // First the base primes up to sqrt(n) with a small plain sieve; then
    // the odd numbers segment by segment, each segment's flags written out
    // as soon as it is sieved. Even numbers are never prime, except 2.
    LADDER_TODO("serial: write the sieve in compute() of exercises/primes/serial.cpp, then delete this line");
    // ==== end
  }

  // ==== exercise only
 private:
  std::span<std::uint8_t> flags_;
  // ==== end
};

}  // namespace
LADDER_REGISTER_RUNG(primes, serial, SerialPrimes);
}  // namespace ladder
