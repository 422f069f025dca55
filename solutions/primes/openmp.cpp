// openmp: serial's segmented sieve with the segments shared out among the
// threads. Each thread sieves its own segments in its own 32 KiB buffer and
// writes its own part of the flags: nothing is shared but the base primes.
#include <vector>

#include "ladder/registry.hpp"
#include "solutions/primes/segmented_sieve.hpp"

namespace ladder {
namespace {

using namespace primes_sieve;

class OpenMpPrimes final : public HostRung {
 public:
  explicit OpenMpPrimes(const RungContext&) {}

  void prepare(const Arrays&, Arrays& outputs) override {
    flags_ = outputs.at("flags").view<std::uint8_t>();
    pattern_ = small_prime_pattern();
  }

  void compute() override {
    const std::uint64_t n = flags_.size();
    if (n == 0) return;
    const std::uint64_t odds = (n + 1) / 2;
    const std::vector<std::uint32_t> primes = base_primes(2 * odds - 1);
    const long segments = static_cast<long>(ceil_div(odds, kSegment));

#pragma omp parallel
    {
      std::vector<std::uint8_t> segment(kSegment);
      std::vector<Crossing> crossings(primes.size());
      long previous = -2;
      // schedule(static): every segment costs about the same (the same primes
      // cross each one), so equal contiguous chunks balance the threads, and
      // a thread's segments follow one another: its crossings carry over from
      // one segment to the next and are computed afresh (one division per
      // prime) only at its first.
#pragma omp for schedule(static)
      for (long s = 0; s < segments; ++s) {
        const std::uint64_t low = static_cast<std::uint64_t>(s) * kSegment;
        if (s != previous + 1)
          for (std::size_t j = 0; j < primes.size(); ++j) crossings[j] = first_crossing(primes[j], low);
        previous = s;
        const std::size_t length = static_cast<std::size_t>(std::min<std::uint64_t>(kSegment, odds - low));
        sieve_segment(low, length, crossings, pattern_.data(), segment.data(), flags_);
      }
    }
    if (n > 2) flags_[2] = 1;
  }

 private:
  std::span<std::uint8_t> flags_;
  std::vector<std::uint8_t> pattern_;
};

}  // namespace
LADDER_REGISTER_RUNG(primes, openmp, Backend::openmp, OpenMpPrimes);
}  // namespace ladder
