// serial: a segmented sieve of Eratosthenes on a mod-30 wheel. Past 5, a
// prime is 30k + 1, 7, 11, 13, 17, 19, 23 or 29, so one byte holds the flags
// of 30 numbers, a bit each, and a 32 KiB segment (983040 numbers) stays in
// the L1 cache while the primes <= sqrt(n) cross out their multiples; then
// its bits are written out as flags. The sieve itself is in
// segmented_sieve.hpp, shared with the openmp rung.
#include <vector>

#include "solutions/primes/sieve_rung.hpp"

namespace ladder {
namespace {

using namespace primes_sieve;

class SerialPrimes final : public SieveRung<HostRung> {
 public:
  using SieveRung::SieveRung;

  void compute() override {
    const std::uint64_t n = flags_.size();
    const std::uint64_t bytes = ceil_div(n, 30);  // wheel byte k holds the numbers 30k ... 30k + 29
    SievingPrimes primes = sieving_primes(crossing_primes(n), 0);

    // One segment after the other: the primes carry over from each to the next.
    std::vector<std::uint8_t> segment(kSegmentBytes);
    for (std::uint64_t low = 0; low < bytes; low += kSegmentBytes)
      sieve_and_write_segment(low, primes, patterns_, segment, flags_);
    set_flags_below_7(flags_);
  }
};

}  // namespace
LADDER_REGISTER_RUNG(primes, serial, SerialPrimes);
}  // namespace ladder
