// Where the primes openmp rung loses its time at 16 threads: the rung's loop
// as it is, then with the write-out left out (the sieve alone), the
// write-out alone, and the write-out with non-temporal stores. Each thread
// records how long it was busy, so that imbalance (a thread still busy
// while the others wait) and a uniform slow-down (every thread slower per
// segment) can be told apart. Built from the repository root:
//   g++ -O2 -std=c++20 -fopenmp -I. primes_threads.cpp
#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "solutions/primes/segmented_sieve.hpp"

using namespace ladder::primes_sieve;
using Clock = std::chrono::steady_clock;

enum class Variant { rung, sieve_only, write_only, streamed_write };
const char* names[] = {"rung", "sieve only", "write-out only", "rung, streamed write-out"};

// The write-out of sieve_segment with 16-byte non-temporal stores.
void streamed_write(const std::uint8_t* seg, std::size_t length, std::uint8_t* out) {
  std::size_t i = 0;
  for (; i + 16 <= length; i += 16) {
    const __m128i odd = _mm_loadu_si128(reinterpret_cast<const __m128i*>(seg + i));
    const __m128i zero = _mm_setzero_si128();
    _mm_stream_si128(reinterpret_cast<__m128i*>(out + 2 * i), _mm_unpacklo_epi8(zero, odd));
    _mm_stream_si128(reinterpret_cast<__m128i*>(out + 2 * i + 16), _mm_unpackhi_epi8(zero, odd));
  }
  for (; i < length; ++i) out[2 * i] = 0, out[2 * i + 1] = seg[i];
}

// A span that sieve_segment(low, ...) writes into scratch[0, 2 length):
// it starts 2 low before scratch (never read there).
std::span<std::uint8_t> in_scratch(std::vector<std::uint8_t>& scratch, std::uint64_t low) {
  return {scratch.data() - 2 * low, 2 * low + scratch.size()};
}

struct Timing {
  double wall, busiest, mean_busy;
};

Timing run(Variant variant, std::span<std::uint8_t> flags, const std::vector<std::uint8_t>& pattern) {
  const std::uint64_t odds = (flags.size() + 1) / 2;
  const auto start = Clock::now();
  const std::vector<std::uint32_t> primes = base_primes(2 * odds - 1);
  const long segments = static_cast<long>((odds + kSegment - 1) / kSegment);
  std::vector<double> busy(omp_get_max_threads());
#pragma omp parallel
  {
    const auto begin = Clock::now();
    std::vector<std::uint8_t> segment(kSegment, 1), scratch(2 * kSegment);
    std::vector<Crossing> crossings(primes.size());
    long previous = -2;
#pragma omp for schedule(static) nowait
    for (long s = 0; s < segments; ++s) {
      const std::uint64_t low = static_cast<std::uint64_t>(s) * kSegment;
      const std::size_t length = std::min<std::uint64_t>(kSegment, odds - low);
      if (s != previous + 1)
        for (std::size_t j = 0; j < primes.size(); ++j) crossings[j] = first_crossing(primes[j], low);
      previous = s;
      switch (variant) {
        case Variant::rung:
          sieve_segment(low, length, crossings, pattern.data(), segment.data(), flags);
          break;
        case Variant::sieve_only:  // the write-out goes to one segment's scratch, which stays in cache
          sieve_segment(low, length, crossings, pattern.data(), segment.data(), in_scratch(scratch, low));
          break;
        case Variant::write_only: {
          std::uint8_t* out = flags.data() + 2 * low;
          const std::size_t pairs = std::min<std::uint64_t>(length, (flags.size() - 2 * low) / 2);
          for (std::size_t i = 0; i < pairs; ++i) {
            const auto pair = static_cast<std::uint16_t>(segment[i] << 8);
            __builtin_memcpy(out + 2 * i, &pair, 2);
          }
          break;
        }
        case Variant::streamed_write:
          sieve_segment(low, length, crossings, pattern.data(), segment.data(), in_scratch(scratch, low));
          if (2 * (low + length) <= flags.size()) streamed_write(segment.data(), length, flags.data() + 2 * low);
          break;
      }
    }
    _mm_sfence();
    busy[omp_get_thread_num()] = std::chrono::duration<double>(Clock::now() - begin).count();
  }
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  double sum = 0;
  for (double b : busy) sum += b;
  return {wall, *std::max_element(busy.begin(), busy.end()), sum / busy.size()};
}

// With an argument, only the rung at that many threads (placed by
// OMP_PLACES from the shell, to compare pairs of CPUs).
int main(int argc, char** argv) {
  const std::size_t n = 100'000'000;
  std::vector<std::uint8_t> flags(n, 0xA5);
  const std::vector<std::uint8_t> pattern = small_prime_pattern();
  if (argc > 1) {
    omp_set_num_threads(std::atoi(argv[1]));
    std::vector<double> walls;
    for (int rep = 0; rep < 21; ++rep) walls.push_back(run(Variant::rung, flags, pattern).wall);
    std::sort(walls.begin(), walls.end());
    std::printf("rung at %s threads: median %.3f ms, best %.3f ms (segment %zu)\n", argv[1], 1e3 * walls[10],
                1e3 * walls[0], kSegment);
    return 0;
  }
  for (int threads : {1, 2, 4, 8, 16}) {
    omp_set_num_threads(threads);
    for (Variant variant : {Variant::rung, Variant::sieve_only, Variant::write_only, Variant::streamed_write}) {
      std::vector<Timing> timings;
      for (int rep = 0; rep < 21; ++rep) timings.push_back(run(variant, flags, pattern));
      std::sort(timings.begin(), timings.end(), [](auto& a, auto& b) { return a.wall < b.wall; });
      const Timing median = timings[timings.size() / 2];
      std::printf("threads %2d  %-26s wall %8.3f ms  busiest thread %8.3f ms  mean thread %8.3f ms  best wall %8.3f ms\n",
                  threads, names[int(variant)], 1e3 * median.wall, 1e3 * median.busiest, 1e3 * median.mean_busy,
                  1e3 * timings.front().wall);
    }
  }
}
