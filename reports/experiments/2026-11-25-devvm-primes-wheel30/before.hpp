// The segmented sieve of Eratosthenes shared by the serial and openmp rungs:
// one byte per odd number, 32 KiB segments that stay in the L1 cache while
// the base primes <= sqrt(n) cross out their multiples, and the multiples of
// 3 ... 13 copied in from a repeating pattern. The rungs differ only in who
// sieves which segment.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace ladder::primes_sieve {

constexpr std::size_t kSegment = 32 * 1024;           // odd numbers per segment: the L1 data cache
constexpr std::size_t kPeriod = 3 * 5 * 7 * 11 * 13;  // the pattern of 3 ... 13 repeats every 15015 odd numbers
static_assert(std::endian::native == std::endian::little, "the flags are written as little-endian pairs");

// Odd entry i stands for the number 2i + 1. A base prime p crosses the odd
// multiples p*m, p entries apart; those with 3 | m are skipped (the pattern
// has them), so the gaps alternate between p and 2p (m = 1, 5 mod 6).
struct Crossing {
  std::uint32_t p, next, gap;  // next entry to cross, and the gap after it
};

// The first multiple p*m >= max(p*p, 2 low + 1) with m odd, not a multiple of 3.
inline Crossing first_crossing(std::uint64_t p, std::uint64_t low) {
  std::uint64_t m = std::max(p, (2 * low + p) / p) | 1;
  if (m % 3 == 0) m += 2;
  return {static_cast<std::uint32_t>(p), static_cast<std::uint32_t>(p * m / 2),
          static_cast<std::uint32_t>(m % 6 == 1 ? 2 * p : p)};
}

// The odd primes 17 <= p <= sqrt(largest): a small plain sieve.
inline std::vector<std::uint32_t> base_primes(std::uint64_t largest) {
  std::vector<std::uint32_t> primes;
  std::vector<std::uint8_t> composite(static_cast<std::size_t>(std::sqrt(static_cast<double>(largest))) + 2, 0);
  for (std::uint64_t p = 3; p * p <= largest; p += 2) {
    if (composite[p]) continue;
    for (std::uint64_t m = p * p; m < composite.size(); m += 2 * p) composite[m] = 1;
    if (p >= 17) primes.push_back(static_cast<std::uint32_t>(p));
  }
  return primes;
}

// pattern[i] = 0 when 3, 5, 7, 11 or 13 divides 2i + 1; kPeriod + kSegment
// long, so that any segment starts as one memcpy.
inline std::vector<std::uint8_t> small_prime_pattern() {
  std::vector<std::uint8_t> pattern(kPeriod + kSegment, 1);
  for (std::size_t p : {3, 5, 7, 11, 13})
    for (std::size_t i = (p - 1) / 2; i < pattern.size(); i += p) pattern[i] = 0;
  return pattern;
}

// Sieves the odd entries [low, low + length) into seg and writes their flags
// (numbers 2 low ... 2 (low + length) - 1) into flags, which holds n numbers.
// The crossings carry over to the segment that follows.
inline void sieve_segment(std::uint64_t low, std::size_t length, std::span<Crossing> crossings,
                          const std::uint8_t* pattern, std::uint8_t* seg, std::span<std::uint8_t> flags) {
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
  // Even numbers are never prime (2 is set by the caller): each entry becomes
  // the 16-bit pair (0, seg[i]), a loop without branches that vectorises.
  // When n is odd, the last entry's pair has only its even half inside.
  std::uint8_t* out = flags.data() + 2 * low;
  const std::size_t pairs = std::min<std::uint64_t>(length, (flags.size() - 2 * low) / 2);
  for (std::size_t i = 0; i < pairs; ++i) {
    const auto pair = static_cast<std::uint16_t>(seg[i] << 8);  // little-endian: seg[i] is the odd flag
    std::memcpy(out + 2 * i, &pair, 2);
  }
  if (pairs < length) out[2 * pairs] = 0;
}

}  // namespace ladder::primes_sieve
