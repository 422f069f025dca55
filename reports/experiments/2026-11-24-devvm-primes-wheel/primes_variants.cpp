// Throwaway timings behind the primes README's "Choices, measured": what the
// serial sieve at n = 10^8 spends on the write-out, and whether a mod-30
// wheel or more pre-sieved primes would pay. One thread, best of 7.
//   g++ -O3 -std=c++20 -I../../.. primes_variants.cpp -o primes_variants && ./primes_variants
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "solutions/primes/segmented_sieve.hpp"

using namespace ladder::primes_sieve;
namespace {

constexpr std::uint64_t kN = 100'000'000, kOdds = kN / 2;

template <class F>
double best_ms(F&& f) {
  double best = 1e30;
  for (int rep = 0; rep < 7; ++rep) {
    const auto start = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

// The rung's crossing loop (mod 6: multiples p·m with 3 | m skipped).
void cross_mod6(Crossing& c, std::uint64_t low, std::size_t length, std::uint8_t* seg) {
  const std::size_t period = 3 * std::size_t{c.p};
  std::size_t i = c.next - low, gap = c.gap;
  for (; i + gap < length; i += period) seg[i] = 0, seg[i + gap] = 0;
  if (i < length) seg[i] = 0, i += gap, gap = period - gap;
  c.next = static_cast<std::uint32_t>(low + i), c.gap = static_cast<std::uint32_t>(gap);
}

// A mod-30 wheel: only m = 1, 7, 11, 13, 17, 19, 23, 29 (mod 30), 8 of 15
// odd m; their entries lie p·{0, 3, 5, 6, 8, 9, 11, 14} into a turn of 15 p.
struct WheelCrossing {
  std::uint32_t p, next, wheel;
};
constexpr std::ptrdiff_t kTurnOffsets[8] = {0, 3, 5, 6, 8, 9, 11, 14};
WheelCrossing first_wheel_crossing(std::uint64_t p) {
  std::uint64_t m = p;  // p >= 7 is prime: m = p is on the wheel
  const std::uint64_t residues[8] = {1, 7, 11, 13, 17, 19, 23, 29};
  const auto place = std::find(residues, residues + 8, m % 30) - residues;
  return {static_cast<std::uint32_t>(p), static_cast<std::uint32_t>(p * m / 2), static_cast<std::uint32_t>(place)};
}
std::size_t cross_in_turn(std::uint8_t* seg, std::ptrdiff_t turn, std::ptrdiff_t p, std::size_t k, std::ptrdiff_t end) {
  for (; k < 8 && turn + p * kTurnOffsets[k] < end; ++k) seg[turn + p * kTurnOffsets[k]] = 0;
  return k;
}
void cross_wheel(WheelCrossing& c, std::uint64_t low, std::size_t length, std::uint8_t* seg) {
  const std::ptrdiff_t p = c.p, end = static_cast<std::ptrdiff_t>(length);
  std::ptrdiff_t turn = static_cast<std::ptrdiff_t>(c.next - low) - p * kTurnOffsets[c.wheel];
  std::size_t k = cross_in_turn(seg, turn, p, c.wheel, end);
  if (k == 8) {
    const std::ptrdiff_t o1 = 3 * p, o2 = 5 * p, o3 = 6 * p, o4 = 8 * p, o5 = 9 * p, o6 = 11 * p, o7 = 14 * p;
    for (turn += 15 * p; turn + o7 < end; turn += 15 * p) {
      seg[turn] = 0, seg[turn + o1] = 0, seg[turn + o2] = 0, seg[turn + o3] = 0;
      seg[turn + o4] = 0, seg[turn + o5] = 0, seg[turn + o6] = 0, seg[turn + o7] = 0;
    }
    k = cross_in_turn(seg, turn, p, 0, end);
  }
  c.next = static_cast<std::uint32_t>(static_cast<std::ptrdiff_t>(low) + turn + p * kTurnOffsets[k]);
  c.wheel = static_cast<std::uint32_t>(k);
}

// Pre-sieving 17 ... 47 as well: three more patterns (17·19·23, 29·31·37,
// 41·43·47 odd numbers long), ANDed into each segment.
std::vector<std::uint8_t> pattern_of(std::initializer_list<std::size_t> primes, std::size_t& period) {
  period = 1;
  for (std::size_t p : primes) period *= p;
  std::vector<std::uint8_t> keep(period + kSegment, 1);
  for (std::size_t p : primes)
    for (std::size_t i = (p - 1) / 2; i < keep.size(); i += p) keep[i] = 0;
  return keep;
}

template <class Each>
void for_each_segment(Each&& each) {
  for (std::uint64_t low = 0; low < kOdds; low += kSegment) each(low, std::min<std::uint64_t>(kSegment, kOdds - low));
}

}  // namespace

int main() {
  std::vector<std::uint8_t> flags(kN, 1), seg(kSegment);
  const std::vector<std::uint8_t> pattern = small_prime_pattern();
  const std::vector<std::uint32_t> primes = base_primes(kN - 1);  // 17 <= p <= 10^4

  const double memset_ms = best_ms([&] { std::memset(flags.data(), 0, kN); });
  const double full_ms = best_ms([&] {
    std::vector<Crossing> crossings;
    for (std::uint32_t p : primes) crossings.push_back(first_crossing(p, 0));
    for_each_segment([&](std::uint64_t low, std::size_t length) {
      sieve_segment(low, length, crossings, pattern.data(), seg.data(), flags);
    });
  });
  const double no_writeout_ms = best_ms([&] {
    std::vector<Crossing> crossings;
    for (std::uint32_t p : primes) crossings.push_back(first_crossing(p, 0));
    for_each_segment([&](std::uint64_t low, std::size_t length) {
      std::memcpy(seg.data(), pattern.data() + low % kPeriod, length);
      for (Crossing& c : crossings) cross_mod6(c, low, length, seg.data());
    });
  });
  std::size_t period_b, period_c, period_d;
  const auto b = pattern_of({17, 19, 23}, period_b), c = pattern_of({29, 31, 37}, period_c),
             d = pattern_of({41, 43, 47}, period_d);
  const double presieve47_ms = best_ms([&] {
    std::vector<Crossing> crossings;
    for (std::uint32_t p : primes)
      if (p >= 53) crossings.push_back(first_crossing(p, 0));
    for_each_segment([&](std::uint64_t low, std::size_t length) {
      const std::uint8_t *pa = pattern.data() + low % kPeriod, *pb = b.data() + low % period_b,
                         *pc = c.data() + low % period_c, *pd = d.data() + low % period_d;
      for (std::size_t i = 0; i < length; ++i) seg[i] = pa[i] & pb[i] & pc[i] & pd[i];
      for (Crossing& x : crossings) cross_mod6(x, low, length, seg.data());
    });
  });
  std::printf("n = 10^8, one thread, best of 7\n");
  std::printf("memset of the 100 MB of flags           %6.2f ms\n", memset_ms);
  std::printf("serial's sieve with its write-out       %6.2f ms\n", full_ms);
  std::printf("  the same without the write-out        %6.2f ms\n", no_writeout_ms);
  std::printf("  pre-sieving 3 ... 47 (4 patterns)     %6.2f ms\n", presieve47_ms);
  std::printf("crossing only, by range of p (ms):       mod 6   mod 30 wheel\n");
  const std::uint32_t ranges[][2] = {{53, 256}, {256, 1024}, {1024, 2200}, {2200, 10000}};
  for (const auto& range : ranges) {
    std::vector<Crossing> mod6;
    std::vector<WheelCrossing> wheel;
    for (std::uint32_t p : primes)
      if (p >= range[0] && p < range[1]) mod6.push_back(first_crossing(p, 0)), wheel.push_back(first_wheel_crossing(p));
    const double a_ms = best_ms([&] {
      auto copy = mod6;
      for_each_segment([&](std::uint64_t low, std::size_t length) { for (auto& x : copy) cross_mod6(x, low, length, seg.data()); });
    });
    const double w_ms = best_ms([&] {
      auto copy = wheel;
      for_each_segment([&](std::uint64_t low, std::size_t length) { for (auto& x : copy) cross_wheel(x, low, length, seg.data()); });
    });
    std::printf("  %5u <= p < %5u                     %6.2f   %6.2f\n", range[0], range[1], a_ms, w_ms);
  }
}
