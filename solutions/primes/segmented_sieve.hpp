// The segmented sieve of Eratosthenes shared by the serial and openmp rungs,
// on a mod-30 wheel. Only the numbers 30k + r with r in {1, 7, 11, 13, 17,
// 19, 23, 29} can be prime past 5, so one byte holds the flags of 30 numbers,
// a bit each: a 32 KiB segment covers 983040 numbers and stays in the L1
// cache. The multiples of 7 ... 47 are copied in from repeating patterns;
// each larger prime <= sqrt(n) then crosses out its multiples. The rungs
// differ only in who sieves which segment.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "ladder/ceil_div.hpp"

namespace ladder::primes_sieve {

// The residues mod 30 of the numbers that a wheel byte holds; bit i is 30k + kWheel[i].
constexpr std::array<std::uint32_t, 8> kWheel = {1, 7, 11, 13, 17, 19, 23, 29};
constexpr std::size_t kSegmentBytes = 32 * 1024;  // the L1 data cache of most CPUs
constexpr std::uint32_t kLargestPresieved = 47;
// The primes whose multiples come from patterns, a group to a pattern: in
// wheel bytes the multiples of p repeat every p bytes, so a group's pattern
// repeats every product of the group (1001, 7429, 33263, 82861 bytes).
constexpr std::array<std::array<std::uint32_t, 3>, 4> kPresieved = {
    {{7, 11, 13}, {17, 19, 23}, {29, 31, 37}, {41, 43, 47}}};

constexpr int wheel_bit(std::uint32_t residue) {
  for (int i = 0; i < 8; ++i)
    if (kWheel[i] == residue) return i;
  return -1;  // divisible by 2, 3 or 5: not on the wheel
}

// A prime p = 30a + kWheel[c] crosses out p * m for m on the wheel, m >= p.
// With m = 30q + kWheel[i], p * m = 30 (p q + a kWheel[i]) + kWheel[c] kWheel[i]:
// it lies in byte p q + a kWheel[i] + kCarry[c][i], and it clears bit
// kClear[c][i] of it. So one turn of the wheel (q to q + 1) moves p bytes
// on, and the 8 crossings of a turn have fixed offsets and masks.
struct WheelSteps {
  std::array<std::array<std::uint32_t, 8>, 8> carry{};
  std::array<std::array<std::uint8_t, 8>, 8> clear{};
};
constexpr WheelSteps make_wheel_steps() {
  WheelSteps steps;
  for (int c = 0; c < 8; ++c)
    for (int i = 0; i < 8; ++i) {
      const std::uint32_t product = kWheel[c] * kWheel[i];
      steps.carry[c][i] = product / 30;
      steps.clear[c][i] = static_cast<std::uint8_t>(~(1u << wheel_bit(product % 30)));
    }
  return steps;
}
inline constexpr WheelSteps kSteps = make_wheel_steps();

// Where a prime stands: its next crossing is at wheel step `step` of the
// turn that starts at byte `turn` (relative to the segment being sieved;
// negative when the turn began in an earlier segment).
struct SievingPrime {
  std::uint32_t a;  // p / 30
  std::uint32_t step;
  std::int64_t turn;
};

// The sieving primes 47 < p <= sqrt(n - 1), in the 8 classes of p mod 30.
using SievingPrimes = std::array<std::vector<SievingPrime>, 8>;

// The primes 47 < p <= sqrt(n - 1), those that cross out their multiples
// one by one: a small plain sieve, once per compute().
inline std::vector<std::uint32_t> crossing_primes(std::uint64_t n) {
  std::vector<std::uint32_t> primes;
  const auto root = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(n)));
  std::vector<std::uint8_t> composite(root + 1, 0);
  for (std::uint64_t p = 2; p <= root; ++p) {
    if (composite[p]) continue;
    for (std::uint64_t multiple = p * p; multiple <= root; multiple += p) composite[multiple] = 1;
    if (p > kLargestPresieved && p * p < n) primes.push_back(static_cast<std::uint32_t>(p));
  }
  return primes;
}

// The primes' positions for a sieve that starts at wheel byte `low`: each
// first crosses p * m with m the smallest wheel number >= p and >= 30 low / p.
inline SievingPrimes sieving_primes(std::span<const std::uint32_t> crossing, std::uint64_t low) {
  SievingPrimes primes;
  for (const std::uint64_t p : crossing) {
    const std::uint64_t m = std::max(p, ceil_div(30 * low, p));
    std::uint64_t q = m / 30;
    int step = 0;
    while (step < 8 && 30 * q + kWheel[step] < m) ++step;
    if (step == 8) ++q, step = 0;
    primes[wheel_bit(p % 30)].push_back({static_cast<std::uint32_t>(p / 30), static_cast<std::uint32_t>(step),
                                         static_cast<std::int64_t>(p * q) - static_cast<std::int64_t>(low)});
  }
  return primes;
}

// The patterns of kPresieved, each one period plus one segment long, so that
// any segment starts as one copy from its offset in each pattern.
struct Patterns {
  std::vector<std::vector<std::uint8_t>> bytes;
  std::vector<std::uint32_t> periods;
};

inline Patterns presieve_patterns() {
  Patterns patterns;
  for (const auto& group : kPresieved) {
    const std::uint32_t period = group[0] * group[1] * group[2];
    std::vector<std::uint8_t> pattern(period + kSegmentBytes, 0xFF);
    for (std::uint32_t p : group)
      for (std::size_t byte = 0; byte < p; ++byte)
        for (int bit = 0; bit < 8; ++bit)
          if ((30 * byte + kWheel[bit]) % p == 0)
            for (std::size_t k = byte; k < pattern.size(); k += p) pattern[k] &= static_cast<std::uint8_t>(~(1u << bit));
    patterns.bytes.push_back(std::move(pattern));
    patterns.periods.push_back(period);
  }
  return patterns;
}

// The crossings of the primes of class c in seg[0, length). The class is a
// template parameter so that the 8 masks of a turn are constants in the code:
// a whole turn is then 8 `and`s to memory, one per crossing.
template <int c>
void cross_out(std::uint8_t* seg, std::int64_t length, std::span<SievingPrime> primes) {
  for (SievingPrime& prime : primes) {
    const std::int64_t p = 30 * std::int64_t{prime.a} + kWheel[c];
    std::int64_t offset[8];
    for (int i = 0; i < 8; ++i) offset[i] = std::int64_t{prime.a} * kWheel[i] + kSteps.carry[c][i];
    std::int64_t turn = prime.turn;
    std::uint32_t step = prime.step;
    // The crossings left in the current turn, up to the segment's end; true
    // when the turn is finished.
    auto rest_of_turn = [&] {
      for (; step < 8; ++step) {
        const std::int64_t at = turn + offset[step];
        if (at >= length) return false;
        seg[at] &= kSteps.clear[c][step];
      }
      turn += p, step = 0;
      return true;
    };
    if (rest_of_turn()) {
      for (; turn + offset[7] < length; turn += p) {  // whole turns
        std::uint8_t* at = seg + turn;
        for (int i = 0; i < 8; ++i) at[offset[i]] &= kSteps.clear[c][i];
      }
      rest_of_turn();
    }
    prime.turn = turn - length, prime.step = step;  // carried over to the next segment
  }
}

// Sieves wheel bytes [low, low + length) into seg; the primes carry over.
inline void sieve_segment(std::uint64_t low, std::size_t length, SievingPrimes& primes, const Patterns& patterns,
                          std::uint8_t* seg) {
  std::memcpy(seg, patterns.bytes[0].data() + low % patterns.periods[0], length);
  for (std::size_t g = 1; g < patterns.bytes.size(); ++g) {
    const std::uint8_t* pattern = patterns.bytes[g].data() + low % patterns.periods[g];
    for (std::size_t k = 0; k < length; ++k) seg[k] &= pattern[k];  // vectorises
  }
  const auto end = static_cast<std::int64_t>(length);
  cross_out<0>(seg, end, primes[0]);
  cross_out<1>(seg, end, primes[1]);
  cross_out<2>(seg, end, primes[2]);
  cross_out<3>(seg, end, primes[3]);
  cross_out<4>(seg, end, primes[4]);
  cross_out<5>(seg, end, primes[5]);
  cross_out<6>(seg, end, primes[6]);
  cross_out<7>(seg, end, primes[7]);
  if (low == 0) {  // 1 is not prime, and the patterns crossed out 7 ... 47 themselves
    seg[0] &= 0xFE;
    for (const auto& group : kPresieved)
      for (std::uint32_t p : group)
        if (p / 30 < length) seg[p / 30] |= static_cast<std::uint8_t>(1u << wheel_bit(p % 30));
  }
}

// The 30 flags of a wheel byte's numbers (and two zeros, to make 32 bytes).
using FlagRow = std::array<std::uint8_t, 32>;
constexpr std::array<FlagRow, 256> make_flag_rows() {
  std::array<FlagRow, 256> rows{};
  for (int byte = 0; byte < 256; ++byte)
    for (int bit = 0; bit < 8; ++bit) rows[byte][kWheel[bit]] = (byte >> bit) & 1;
  return rows;
}
inline constexpr std::array<FlagRow, 256> kFlagRows = make_flag_rows();

// Writes the flags of the numbers 30 low ... 30 (low + length) - 1 that are
// below n = flags.size(). Each byte's row is copied whole, 32 bytes, which
// the next row then overwrites from its 31st byte on; the segment's last row
// is copied only as far as its own numbers, so that threads writing
// neighbouring segments never write the same flags. 2, 3 and 5 are the caller's.
inline void write_flags(std::uint64_t low, const std::uint8_t* seg, std::size_t length, std::span<std::uint8_t> flags) {
  std::uint8_t* out = flags.data() + 30 * low;
  const std::uint64_t numbers = std::min<std::uint64_t>(30 * length, flags.size() - 30 * low);
  std::size_t k = 0;
  for (; 30 * k + 32 <= numbers; ++k) std::memcpy(out + 30 * k, kFlagRows[seg[k]].data(), 32);
  for (; 30 * k < numbers; ++k) std::memcpy(out + 30 * k, kFlagRows[seg[k]].data(), std::min<std::uint64_t>(30, numbers - 30 * k));
}

// One segment, the step both rungs take: sieves the wheel bytes from `low`
// (at most kSegmentBytes of them, fewer at the end) and writes their flags.
inline void sieve_and_write_segment(std::uint64_t low, SievingPrimes& primes, const Patterns& patterns,
                                    std::span<std::uint8_t> segment, std::span<std::uint8_t> flags) {
  const std::uint64_t bytes = ceil_div(flags.size(), std::size_t{30});
  const auto length = static_cast<std::size_t>(std::min<std::uint64_t>(kSegmentBytes, bytes - low));
  sieve_segment(low, length, primes, patterns, segment.data());
  write_flags(low, segment.data(), length, flags);
}

inline void set_flags_below_7(std::span<std::uint8_t> flags) {
  for (std::size_t k : {2, 3, 5})
    if (k < flags.size()) flags[k] = 1;
}

}  // namespace ladder::primes_sieve
