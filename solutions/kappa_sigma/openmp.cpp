// openmp: every pass over the kept values is split between the threads.
// Each thread owns a chunk of a work buffer and compacts it in place, as the
// serial rung does with the whole buffer: no thread ever writes into
// another's chunk, so the parallel compaction needs no scan. nth_element
// cannot be split between threads, so the median comes from a radix select
// over the float bit patterns instead: a histogram of the top 11 bits of an
// order-preserving uint32 key (made while compacting) names the bucket of
// each middle value; one parallel pass gathers the values of those buckets
// and histograms their next 11 bits; the last 10 bits are counted among
// those candidates only. Per-thread sums are added in thread order: for a
// given thread count the result is the same every run.
#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "bench/problems/kappa_sigma/given/radix_select.hpp"
#include "bench/problems/kappa_sigma/given/sky_rung.hpp"

namespace ladder {
namespace {

using namespace kappa_sigma;  // the radix select's digits (given/radix_select.hpp)

// What one thread owns: its chunk of the kept values and of the candidates
// (both start at `begin`), its histograms, and its sums.
struct alignas(64) ThreadPart {
  std::size_t begin = 0, kept = 0, candidates = 0;
  std::array<std::array<std::uint32_t, kBuckets>, 2> counts;  // one histogram per target
  double sum = 0, squares = 0;
};

class OpenMpKappaSigma final : public kappa_sigma::SkyRung<OpenMpRung> {
 public:
  using SkyRung::SkyRung;

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    SkyRung::prepare(inputs, outputs);
    kept_.resize(image_.size());
    candidates_.resize(image_.size());
  }

  void compute() override {
    parts_.resize(static_cast<std::size_t>(omp_get_max_threads()));
    threads_ = static_cast<int>(parts_.size());
    const double infinity = std::numeric_limits<double>::infinity();
    double shift = image_[0];
    std::size_t n = compact(image_.data(), -infinity, infinity, shift);  // copies the image in
    double kept_lower = -infinity, kept_upper = infinity;
    ClipStatistics stats;
    while (true) {
      ++stats.iterations;
      double sum = 0, squares = 0;
      for (const ThreadPart& part : parts_) sum += part.sum, squares += part.squares;
      const double offset = sum / double(n);
      stats.mean = shift + offset;
      stats.std = std::sqrt(std::max(0.0, squares / double(n) - offset * offset));
      stats.median = median(n);
      stats.lower = stats.median - kappa_ * stats.std;
      stats.upper = stats.median + kappa_ * stats.std;
      kept_lower = std::max(kept_lower, stats.lower);
      kept_upper = std::min(kept_upper, stats.upper);

      shift = stats.median;
      const std::size_t survivors = compact(nullptr, stats.lower, stats.upper, shift);
      const bool removed_nothing = survivors == n;
      n = survivors;
      if (removed_nothing || n == 0) break;
    }
    stats.count = n;

    const long pixels = static_cast<long>(image_.size());
#pragma omp parallel for schedule(static) num_threads(threads_)
    for (long i = 0; i < pixels; ++i) mask_[i] = image_[i] > kept_lower && image_[i] < kept_upper;
    kappa_sigma::store_statistics(stats, statistics_);
  }

 private:
  // Each thread keeps the values of its chunk strictly inside (lower,
  // upper), packed at the chunk's start, sums them shifted by `shift` and
  // histograms their top digit. With `image`, the chunks are first cut from
  // the image; otherwise each thread compacts its own chunk in place.
  // Returns how many values are kept in all.
  std::size_t compact(const float* image, double lower, double upper, double shift) {
#pragma omp parallel num_threads(threads_)
    {
      const auto thread = static_cast<std::size_t>(omp_get_thread_num());
      ThreadPart& part = parts_[thread];
      if (image != nullptr) {
        const auto threads = static_cast<std::size_t>(omp_get_num_threads());
        part.begin = image_.size() * thread / threads;
        part.kept = image_.size() * (thread + 1) / threads - part.begin;
      }
      const float* in = image != nullptr ? image + part.begin : kept_.data() + part.begin;
      float* out = kept_.data() + part.begin;
      part.counts[0].fill(0);
      std::size_t kept = 0;
      for (std::size_t i = 0; i < part.kept; ++i) {
        const float x = in[i];
        if (!(x > lower && x < upper)) continue;
        out[kept++] = x;
        ++part.counts[0][first_digit(x)];
      }
      // The sums in a loop of their own, over the chunk still in cache:
      // `simd reduction` lets the compiler keep several partial sums in
      // vector lanes instead of one chain of dependent additions.
      double sum = 0, squares = 0;
#pragma omp simd reduction(+ : sum, squares)
      for (std::size_t i = 0; i < kept; ++i) {
        const double d = double{out[i]} - shift;
        sum += d, squares += d * d;
      }
      part.kept = kept, part.sum = sum, part.squares = squares;
    }
    std::size_t kept = 0;
    for (const ThreadPart& part : parts_) kept += part.kept;
    return kept;
  }

  // The median of the n kept values: the two middle values found digit by
  // digit, each digit from the threads' histograms added up.
  double median(std::size_t n) {
    std::array<Target, 2> targets = middle_values(n);
    for (int pass = 0; pass < kDigits; ++pass) {
      if (pass > 0) histogram(pass, targets);
      const bool shared = pass == 0 || targets[0].prefix == targets[1].prefix;
      for (std::size_t t = 0; t < 2; ++t) {
        select_digit(targets[t], pass, [&](std::size_t bucket) {
          std::size_t count = 0;
          for (const ThreadPart& part : parts_) count += part.counts[shared ? 0 : t][bucket];
          return count;
        });
      }
    }
    return median_of(targets);
  }

  // Each thread histograms digit `pass` of its chunk's values whose higher
  // digits are a target's prefix. Pass 1 reads every kept value and gathers
  // those candidates into the thread's chunk of candidates_; pass 2 reads
  // the candidates only.
  void histogram(int pass, const std::array<Target, 2>& targets) {
#pragma omp parallel num_threads(threads_)
    {
      ThreadPart& part = parts_[static_cast<std::size_t>(omp_get_thread_num())];
      const bool gather = pass == 1;
      const float* in = (gather ? kept_.data() : candidates_.data()) + part.begin;
      const std::size_t count = gather ? part.kept : part.candidates;
      const std::size_t gathered =
          count_digit(pass, targets, in, count, part.counts, gather ? candidates_.data() + part.begin : nullptr);
      if (gather) part.candidates = gathered;
    }
  }

  std::vector<float> kept_;        // each thread's kept values, packed at the start of its chunk
  std::vector<float> candidates_;  // each thread's values in the middle values' buckets
  std::vector<ThreadPart> parts_;
  int threads_ = 1;
};

}  // namespace
LADDER_REGISTER_RUNG(kappa_sigma, openmp, OpenMpKappaSigma);
}  // namespace ladder
