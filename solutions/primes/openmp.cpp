// openmp: serial's segmented sieve with the segments shared out among the
// threads. Each thread sieves its own segments in its own 32 KiB buffer and
// writes its own part of the flags: nothing is shared but the base primes.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

#include "ladder/registry.hpp"

namespace ladder {
namespace {

constexpr std::size_t kSegment = 32 * 1024;           // odd numbers per segment: the L1 data cache
constexpr std::size_t kPeriod = 3 * 5 * 7 * 11 * 13;  // the pattern of 3 ... 13 repeats every 15015 odd numbers
static_assert(std::endian::native == std::endian::little, "the flags are written as little-endian pairs");

// As in serial.cpp: odd entry i is 2i + 1; p crosses p*m for odd m not
// divisible by 3, the gaps alternating between p and 2p entries.
struct Crossing {
  std::uint32_t p, next, gap;
};

// The first multiple p*m >= max(p*p, 2 low + 1) with m odd, not a multiple of
// 3: one division per prime, paid once per run of consecutive segments.
Crossing first_crossing(std::uint64_t p, std::uint64_t low) {
  std::uint64_t m = std::max(p, (2 * low + p) / p) | 1;
  if (m % 3 == 0) m += 2;
  return {static_cast<std::uint32_t>(p), static_cast<std::uint32_t>(p * m / 2),
          static_cast<std::uint32_t>(m % 6 == 1 ? 2 * p : p)};
}

std::vector<std::uint32_t> base_primes(std::uint64_t largest) {
  std::vector<std::uint32_t> primes;
  std::vector<std::uint8_t> composite(static_cast<std::size_t>(std::sqrt(static_cast<double>(largest))) + 2, 0);
  for (std::uint64_t p = 3; p * p <= largest; p += 2) {
    if (composite[p]) continue;
    for (std::uint64_t m = p * p; m < composite.size(); m += 2 * p) composite[m] = 1;
    if (p >= 17) primes.push_back(static_cast<std::uint32_t>(p));
  }
  return primes;
}

class OpenMpPrimes final : public HostRung {
 public:
  explicit OpenMpPrimes(const RungContext&) {}

  void prepare(const Arrays&, Arrays& outputs) override {
    flags_ = outputs.at("flags").view<std::uint8_t>();
    pattern_.assign(kPeriod + kSegment, 1);
    for (std::size_t p : {3, 5, 7, 11, 13})
      for (std::size_t i = (p - 1) / 2; i < pattern_.size(); i += p) pattern_[i] = 0;
  }

  void compute() override {
    const std::uint64_t n = flags_.size();
    if (n == 0) return;
    const std::uint64_t odds = (n + 1) / 2;
    const std::vector<std::uint32_t> primes = base_primes(2 * odds - 1);
    const long segments = static_cast<long>((odds + kSegment - 1) / kSegment);
    std::uint8_t* const flags = flags_.data();
    const std::uint8_t* const pattern = pattern_.data();

#pragma omp parallel
    {
      std::vector<std::uint8_t> segment(kSegment);
      std::vector<Crossing> crossings(primes.size());
      long previous = -2;
      // schedule(static): every segment costs about the same (the same primes
      // cross each one), so equal contiguous chunks balance the threads, and
      // a thread's segments follow one another: its crossings carry over from
      // one segment to the next and are computed afresh only at its first.
#pragma omp for schedule(static)
      for (long s = 0; s < segments; ++s) {
        const std::uint64_t low = static_cast<std::uint64_t>(s) * kSegment;
        if (s != previous + 1)
          for (std::size_t j = 0; j < primes.size(); ++j) crossings[j] = first_crossing(primes[j], low);
        previous = s;

        const std::size_t length = static_cast<std::size_t>(std::min<std::uint64_t>(kSegment, odds - low));
        std::uint8_t* seg = segment.data();
        std::memcpy(seg, pattern + low % kPeriod, length);
        for (Crossing& c : crossings) {
          const std::size_t period = 3 * std::size_t{c.p};
          std::size_t i = c.next - low, gap = c.gap;
          for (; i + gap < length; i += period) seg[i] = 0, seg[i + gap] = 0;
          if (i < length) seg[i] = 0, i += gap, gap = period - gap;
          c.next = static_cast<std::uint32_t>(low + i), c.gap = static_cast<std::uint32_t>(gap);
        }
        if (low == 0) {  // the pattern crossed out 3 ... 13 themselves, and 1 is not prime
          seg[0] = 0;
          for (std::size_t i : {1, 2, 3, 5, 6})
            if (i < length) seg[i] = 1;
        }
        std::uint8_t* out = flags + 2 * low;
        const std::size_t pairs = (low + length == odds && n % 2 == 1) ? length - 1 : length;
        for (std::size_t i = 0; i < pairs; ++i) {
          const auto pair = static_cast<std::uint16_t>(seg[i] << 8);  // (0, seg[i]): even numbers are not prime
          std::memcpy(out + 2 * i, &pair, 2);
        }
        if (pairs < length) out[2 * pairs] = 0;
      }
    }
    if (n > 2) flags[2] = 1;
  }

 private:
  std::span<std::uint8_t> flags_;
  std::vector<std::uint8_t> pattern_;
};

}  // namespace
LADDER_REGISTER_RUNG(primes, openmp, Backend::openmp, OpenMpPrimes);
}  // namespace ladder
