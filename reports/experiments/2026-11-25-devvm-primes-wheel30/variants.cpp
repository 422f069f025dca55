// Throwaway timing: the serial primes rung's sieve (one byte per odd number,
// mod-6 crossings) against a mod-30 wheel with bit-packed segments and
// pre-sieved patterns, at n = 10^8 on one thread, with primesieve's count in
// the same process. Build: see README.md beside this file.
#include <algorithm>
#include <bit>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <emmintrin.h>
#include <functional>
#include <span>
#include <vector>

namespace before {
#include "before.hpp"  // the rung before this change (solutions/primes/segmented_sieve.hpp at b4eb858)
}
#include "solutions/primes/segmented_sieve.hpp"  // the rung now

extern "C" std::uint64_t primesieve_count_primes(std::uint64_t, std::uint64_t);
extern "C" void primesieve_set_num_threads(int);

namespace wheel {

constexpr std::array<std::uint32_t, 8> kResidues = {1, 7, 11, 13, 17, 19, 23, 29};

constexpr int bit_of(std::uint32_t r) {
  for (int i = 0; i < 8; ++i)
    if (kResidues[i] == r) return i;
  return -1;
}

// For a prime p = 30 a + kResidues[c], its multiple p * (30 q + kResidues[i])
// lies in byte p q + a kResidues[i] + kCarry[c][i], bit kBit[c][i].
struct Tables {
  std::array<std::array<std::uint32_t, 8>, 8> carry{};
  std::array<std::array<std::uint8_t, 8>, 8> mask{};
};
constexpr Tables make_tables() {
  Tables t;
  for (int c = 0; c < 8; ++c)
    for (int i = 0; i < 8; ++i) {
      const std::uint32_t product = kResidues[c] * kResidues[i];
      t.carry[c][i] = product / 30;
      t.mask[c][i] = static_cast<std::uint8_t>(~(1u << bit_of(product % 30)));
    }
  return t;
}
constexpr Tables kTables = make_tables();

struct WheelPrime {
  std::uint32_t a;       // p / 30
  std::int64_t turn;     // byte of p q, relative to the current segment
  std::uint32_t index;   // next wheel step 0..7
};

template <int c>
void cross_class(std::uint8_t* seg, std::int64_t len, std::span<WheelPrime> primes) {
  for (WheelPrime& w : primes) {
    const std::int64_t p = 30 * std::int64_t{w.a} + kResidues[c];
    std::int64_t offset[8];
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) offset[i] = std::int64_t{w.a} * kResidues[i] + kTables.carry[c][i];
    std::int64_t t = w.turn;
    std::uint32_t i = w.index;
    auto rest_of_turn = [&] {
      for (; i < 8; ++i) {
        const std::int64_t at = t + offset[i];
        if (at >= len) return false;
        seg[at] &= kTables.mask[c][i];
      }
      t += p, i = 0;
      return true;
    };
    if (rest_of_turn()) {
      for (; t + offset[7] < len; t += p) {
        std::uint8_t* s = seg + t;
#pragma GCC unroll 8
        for (int k = 0; k < 8; ++k) s[offset[k]] &= kTables.mask[c][k];
      }
      rest_of_turn();
    }
    w.turn = t - len, w.index = i;
  }
}

struct Sieve {
  std::size_t segment_bytes;
  std::uint32_t presieve_max;
  std::vector<std::vector<std::uint8_t>> patterns;  // each: period + segment_bytes
  std::vector<std::uint32_t> periods;
  std::vector<std::uint32_t> presieved;
  std::array<std::array<std::uint8_t, 32>, 256> expand{};

  Sieve(std::size_t seg, std::uint32_t pmax, std::vector<std::vector<std::uint32_t>> groups) : segment_bytes(seg), presieve_max(pmax) {
    for (auto& g : groups) {
      std::uint32_t period = 1;
      for (auto p : g) period *= p, presieved.push_back(p);
      std::vector<std::uint8_t> pat(period + seg, 0xFF);
      for (auto p : g)
        for (std::uint64_t byte = 0; byte < pat.size(); ++byte)
          for (int b = 0; b < 8; ++b)
            if ((30 * byte + kResidues[b]) % p == 0) pat[byte] &= static_cast<std::uint8_t>(~(1u << b));
      patterns.push_back(std::move(pat));
      periods.push_back(period);
    }
    for (int b = 0; b < 256; ++b)
      for (int i = 0; i < 8; ++i) expand[b][kResidues[i]] = (b >> i) & 1;
  }

  template <class Sink>
  void run(std::uint64_t n, Sink&& sink) {
    const std::uint64_t bytes = (n + 29) / 30;
    // sieving primes: presieve_max < p <= sqrt(n - 1), by class
    std::array<std::vector<WheelPrime>, 8> classes;
    const std::uint64_t root = static_cast<std::uint64_t>(std::sqrt(double(n)));
    std::vector<std::uint8_t> composite(root + 2, 0);
    for (std::uint64_t p = 2; p <= root; ++p) {
      if (composite[p]) continue;
      for (std::uint64_t m = p * p; m <= root; m += p) composite[m] = 1;
      if (p <= presieve_max || p * p >= n) continue;
      // the first multiple crossed is p * p: m = p = 30 q + kResidues[class of p], q = p / 30
      const int c = bit_of(p % 30);
      classes[c & 7].push_back({static_cast<std::uint32_t>(p / 30), static_cast<std::int64_t>(p * (p / 30)), static_cast<std::uint32_t>(c)});
    }
    std::vector<std::uint8_t> seg(segment_bytes);
    for (std::uint64_t lo = 0; lo < bytes; lo += segment_bytes) {
      const std::size_t len = std::min<std::uint64_t>(segment_bytes, bytes - lo);
      std::memcpy(seg.data(), patterns[0].data() + lo % periods[0], len);
      for (std::size_t g = 1; g < patterns.size(); ++g) {
        const std::uint8_t* pat = patterns[g].data() + lo % periods[g];
        for (std::size_t k = 0; k < len; ++k) seg[k] &= pat[k];
      }
      std::int64_t l = static_cast<std::int64_t>(len);
      cross_class<0>(seg.data(), l, classes[0]);
      cross_class<1>(seg.data(), l, classes[1]);
      cross_class<2>(seg.data(), l, classes[2]);
      cross_class<3>(seg.data(), l, classes[3]);
      cross_class<4>(seg.data(), l, classes[4]);
      cross_class<5>(seg.data(), l, classes[5]);
      cross_class<6>(seg.data(), l, classes[6]);
      cross_class<7>(seg.data(), l, classes[7]);
      if (lo == 0) {
        seg[0] &= 0xFE;  // 1
        for (auto p : presieved) seg[p / 30] |= static_cast<std::uint8_t>(1u << bit_of(p % 30));
      }
      sink(lo, seg.data(), len);
    }
  }
};

}  // namespace wheel

template <class F>
double best_ms(F&& f, int reps = 15) {

  std::vector<double> all;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    auto t1 = std::chrono::steady_clock::now();
    all.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::sort(all.begin(), all.end());
  return all[all.size() / 2];
}

int main(int argc, char** argv) {
  const std::uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000000ull;
  std::vector<std::uint8_t> flags(n, 0xA5), reference(n, 0);
  primesieve_set_num_threads(1);

  // the rung today
  auto pattern = before::ladder::primes_sieve::small_prime_pattern();
  auto today = [&](std::span<std::uint8_t> out) {
    using namespace before::ladder::primes_sieve;
    const std::uint64_t odds = (n + 1) / 2;
    std::vector<Crossing> crossings;
    for (std::uint32_t p : base_primes(2 * odds - 1)) crossings.push_back(first_crossing(p, 0));
    std::vector<std::uint8_t> segment(kSegment);
    for (std::uint64_t low = 0; low < odds; low += kSegment) {
      const std::size_t length = std::min<std::uint64_t>(kSegment, odds - low);
      sieve_segment(low, length, crossings, pattern.data(), segment.data(), out);
    }
    if (n > 2) out[2] = 1;
  };
  today(reference);
  std::uint64_t ref_count = 0;
  for (auto f : reference) ref_count += f;

  auto write_flags = [&](wheel::Sieve& s) {
    return [&](std::uint64_t lo, const std::uint8_t* seg, std::size_t len) {
      std::uint8_t* out = flags.data() + 30 * lo;
      const std::uint64_t room = n - 30 * lo;
      std::size_t k = 0;
      for (; k < len && 30 * k + 32 <= room; ++k) std::memcpy(out + 30 * k, s.expand[seg[k]].data(), 32);
      for (; k < len; ++k) std::memcpy(out + 30 * k, s.expand[seg[k]].data(), std::min<std::uint64_t>(30, room - 30 * k));
    };
  };
  alignas(64) static std::uint8_t staging[30 * 256 + 32];
  auto write_flags_stream = [&](wheel::Sieve& s) {
    return [&](std::uint64_t lo, const std::uint8_t* seg, std::size_t len) {
      std::uint8_t* out = flags.data() + 30 * lo;
      const std::uint64_t room = n - 30 * lo;
      for (std::size_t k0 = 0; k0 < len; k0 += 256) {
        const std::size_t kn = std::min<std::size_t>(256, len - k0);
        for (std::size_t k = 0; k < kn; ++k) std::memcpy(staging + 30 * k, s.expand[seg[k0 + k]].data(), 32);
        const std::size_t bytes = std::min<std::uint64_t>(30 * kn, room - 30 * k0);
        std::uint8_t* dst = out + 30 * k0;
        std::size_t j = 0;
        if ((reinterpret_cast<std::uintptr_t>(dst) & 15) == 0)
          for (; j + 16 <= bytes; j += 16) _mm_stream_si128(reinterpret_cast<__m128i*>(dst + j), _mm_load_si128(reinterpret_cast<const __m128i*>(staging + j)));
        std::memcpy(dst + j, staging + j, bytes - j);
      }
    };
  };
  auto write_flags_memcpy = [&](wheel::Sieve& s) {
    return [&](std::uint64_t lo, const std::uint8_t* seg, std::size_t len) {
      std::uint8_t* out = flags.data() + 30 * lo;
      const std::uint64_t room = n - 30 * lo;
      for (std::size_t k0 = 0; k0 < len; k0 += 256) {
        const std::size_t kn = std::min<std::size_t>(256, len - k0);
        for (std::size_t k = 0; k < kn; ++k) std::memcpy(staging + 30 * k, s.expand[seg[k0 + k]].data(), 32);
        std::memcpy(out + 30 * k0, staging, std::min<std::uint64_t>(30 * kn, room - 30 * k0));
      }
    };
  };
  auto fixup = [&] {
    if (n > 2) flags[2] = 1;
    if (n > 3) flags[3] = 1;
    if (n > 5) flags[5] = 1;
  };
  auto verify = [&](const char* name) {
    if (flags != reference) {
      std::printf("MISMATCH %s\n", name);
      for (std::uint64_t i = 0; i < n; ++i)
        if (flags[i] != reference[i]) { std::printf("  first at %llu: %d vs %d\n", (unsigned long long)i, flags[i], reference[i]); break; }
    }
  };

  std::printf("n = %llu, pi = %llu\n", (unsigned long long)n, (unsigned long long)ref_count);
  // The rung now: solutions/primes/serial.cpp's compute(), with and without its write-out.
  namespace now = ladder::primes_sieve;
  const now::Patterns patterns = now::presieve_patterns();
  auto rung_now = [&](bool write) {
    std::uint64_t count = 0;
    const std::uint64_t bytes = ladder::ceil_div(n, 30);
    now::SievingPrimes primes = now::sieving_primes(now::crossing_primes(n), 0);
    std::vector<std::uint8_t> segment(now::kSegmentBytes);
    for (std::uint64_t low = 0; low < bytes; low += now::kSegmentBytes) {
      const std::size_t length = std::min<std::uint64_t>(now::kSegmentBytes, bytes - low);
      now::sieve_segment(low, length, primes, patterns, segment.data());
      if (write) now::write_flags(low, segment.data(), length, flags);
      else
        for (std::size_t k = 0; k + 8 <= length; k += 8) { std::uint64_t w; std::memcpy(&w, segment.data() + k, 8); count += std::popcount(w); }
    }
    if (write) now::set_flags_below_7(flags);
    return count;
  };
  for (int round = 1; round <= 3; ++round) {
    std::uint64_t c = 0;
    std::printf("round %d (medians of 15)\n", round);
    std::printf("  primesieve count, 1 thread     %8.2f ms\n", best_ms([&] { c = primesieve_count_primes(0, n - 1); }));
    std::printf("  memset of the flags            %8.2f ms\n", best_ms([&] { std::memset(flags.data(), 0, n); }));
    std::printf("  16-byte stores over the flags  %8.2f ms\n", best_ms([&] {
      std::uint8_t ones[16]; std::memset(ones, 1, 16);
      for (std::size_t j = 0; j + 16 <= n; j += 16) std::memcpy(flags.data() + j, ones, 16);
    }));
    std::printf("  the rung before                %8.2f ms\n", best_ms([&] { today(flags); }));
    std::printf("  the rung now, sieve only       %8.2f ms\n", best_ms([&] { c = rung_now(false); }));
    std::printf("  the rung now                   %8.2f ms\n", best_ms([&] { rung_now(true); }));
    verify("the rung now");
  }

  using G = std::vector<std::vector<std::uint32_t>>;
  struct Config { const char* name; std::size_t seg; std::uint32_t pmax; G groups; };
  std::vector<Config> configs = {
      {"32K, pre 13", 32768, 13, {{7, 11, 13}}},
      {"32K, pre 23", 32768, 23, {{7, 11, 13}, {17, 19, 23}}},
      {"32K, pre 47", 32768, 47, {{7, 11, 13}, {17, 19, 23}, {29, 31, 37}, {41, 43, 47}}},
      {"32K, pre 73", 32768, 73, {{7, 11, 13}, {17, 19, 23}, {29, 31, 37}, {41, 43, 47}, {53, 59}, {61, 67}, {71, 73}}},
      {"16K, pre 47", 16384, 47, {{7, 11, 13}, {17, 19, 23}, {29, 31, 37}, {41, 43, 47}}},
      {"64K, pre 47", 65536, 47, {{7, 11, 13}, {17, 19, 23}, {29, 31, 37}, {41, 43, 47}}},
      {"128K, pre 47", 131072, 47, {{7, 11, 13}, {17, 19, 23}, {29, 31, 37}, {41, 43, 47}}},
  };
  for (auto& cfg : configs) {
    wheel::Sieve s(cfg.seg, cfg.pmax, cfg.groups);
    std::uint64_t count = 0;
    const double t_count = best_ms([&] {
      count = 3;
      s.run(n, [&](std::uint64_t lo, const std::uint8_t* seg, std::size_t len) {
        std::size_t k = 0;
        for (; k + 8 <= len; k += 8) { std::uint64_t w; std::memcpy(&w, seg + k, 8); count += std::popcount(w); }
        for (; k < len; ++k) count += std::popcount(seg[k]);
        (void)lo;
      });
    });
    std::fill(flags.begin(), flags.end(), 0xA5);
    auto sink = write_flags(s);
    const double t_flags = best_ms([&] { s.run(n, sink); fixup(); });
    verify(cfg.name);
    std::fill(flags.begin(), flags.end(), 0xA5);
    auto sink2 = write_flags_memcpy(s);
    const double t_memcpy = best_ms([&] { s.run(n, sink2); fixup(); });
    verify(cfg.name);
    std::fill(flags.begin(), flags.end(), 0xA5);
    auto sink3 = write_flags_stream(s);
    const double t_stream = best_ms([&] { s.run(n, sink3); fixup(); });
    verify(cfg.name);
    std::printf("wheel %-14s count %8.2f ms (count %llu)  flags %8.2f  staged-memcpy %8.2f  staged-stream %8.2f ms\n", cfg.name, t_count,
                (unsigned long long)count, t_flags, t_memcpy, t_stream);
  }
}
