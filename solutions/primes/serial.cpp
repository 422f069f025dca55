// serial: a segmented sieve of Eratosthenes over the odd numbers only. Each
// 32 KiB segment (one byte per odd number) stays in the L1 cache while the
// base primes <= sqrt(n) cross out their multiples in it; then it is written
// out as flags. Multiples of 3 ... 13 come from a repeating pattern. The
// sieve itself is in segmented_sieve.hpp, shared with the openmp rung.
#include <vector>

#include "ladder/registry.hpp"
#include "solutions/primes/segmented_sieve.hpp"

namespace ladder {
namespace {

using namespace primes_sieve;

class SerialPrimes final : public HostRung {
 public:
  explicit SerialPrimes(const RungContext&) {}

  void prepare(const Arrays&, Arrays& outputs) override {
    flags_ = outputs.at("flags").view<std::uint8_t>();
    pattern_ = small_prime_pattern();
  }

  void compute() override {
    const std::uint64_t n = flags_.size();
    if (n == 0) return;
    const std::uint64_t odds = (n + 1) / 2;  // odd entry i is the number 2i + 1
    std::vector<Crossing> crossings;
    for (std::uint32_t p : base_primes(2 * odds - 1)) crossings.push_back(first_crossing(p, 0));

    // One segment after the other: the crossings carry over from each to the next.
    std::vector<std::uint8_t> segment(kSegment);
    for (std::uint64_t low = 0; low < odds; low += kSegment) {
      const std::size_t length = static_cast<std::size_t>(std::min<std::uint64_t>(kSegment, odds - low));
      sieve_segment(low, length, crossings, pattern_.data(), segment.data(), flags_);
    }
    if (n > 2) flags_[2] = 1;
  }

 private:
  std::span<std::uint8_t> flags_;
  std::vector<std::uint8_t> pattern_;
};

}  // namespace
LADDER_REGISTER_RUNG(primes, serial, Backend::host, SerialPrimes);
}  // namespace ladder
