// openmp: serial's segmented sieve with the segments shared out among the
// threads. Each thread sieves its own segments in its own 32 KiB buffer and
// writes its own part of the flags: nothing is shared but the patterns and
// the list of crossing primes.
#include <vector>

#include "solutions/primes/sieve_rung.hpp"

namespace ladder {
namespace {

using namespace primes_sieve;

class OpenMpPrimes final : public SieveRung<OpenMpRung> {
 public:
  using SieveRung::SieveRung;

  void compute() override {
    const std::uint64_t n = flags_.size();
    const std::uint64_t bytes = ceil_div(n, 30);
    const long segments = static_cast<long>(ceil_div(bytes, kSegmentBytes));
    const std::vector<std::uint32_t> crossing = crossing_primes(n);  // once, shared by the threads

#pragma omp parallel
    {
      std::vector<std::uint8_t> segment(kSegmentBytes);
      SievingPrimes primes;
      long previous = -2;
      // schedule(static): every segment costs about the same (the same primes
      // cross each one), so equal contiguous chunks balance the threads, and
      // a thread's segments follow one another: its primes carry over from
      // one segment to the next and are placed afresh (a division per prime)
      // only at its first.
#pragma omp for schedule(static)
      for (long s = 0; s < segments; ++s) {
        const std::uint64_t low = static_cast<std::uint64_t>(s) * kSegmentBytes;
        if (s != previous + 1) primes = sieving_primes(crossing, low);
        previous = s;
        sieve_and_write_segment(low, primes, patterns_, segment, flags_);
      }
    }
    set_flags_below_7(flags_);
  }
};

}  // namespace
LADDER_REGISTER_RUNG(primes, openmp, OpenMpPrimes);
}  // namespace ladder
