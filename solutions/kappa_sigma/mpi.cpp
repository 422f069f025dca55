// mpi: the openmp rung's clip with ranks for threads. Each rank keeps its
// part of the sky and compacts it in place, summing what it keeps and
// histogramming its first radix digit in the same pass; then one pass
// gathers the values in the middle values' buckets, and the last digit is
// counted among those candidates only. What the threads shared through
// memory, the ranks now add with MPI_Allreduce: the count and sums of the
// kept values (for the mean and std), and for the median, the histograms
// of the radix select, one digit per round. Every iteration of the clip is
// a few small messages that every rank waits for: the latency lesson (many
// rounds of a few kilobytes).
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "bench/problems/kappa_sigma/given/clip.hpp"
#include "bench/problems/kappa_sigma/given/radix_select.hpp"
#include "ladder/mpi.hpp"

namespace ladder {
namespace {

using namespace kappa_sigma;  // the radix select's digits (given/radix_select.hpp), as the openmp rung's

class MpiKappaSigma final : public MpiRung {
 public:
  explicit MpiKappaSigma(const RungContext& context) : MpiRung(context), kappa_(kappa_sigma::kappa_of(context.params)) {}
  // The shift's broadcast; add_up before the loop and once an iteration; the
  // median's three rounds an iteration (one histogram, then at most two).
  std::optional<std::vector<Message>> communication() const override {
    return std::vector<Message>{{"reduce", sizeof(double), 1},
                                {"allreduce", sizeof(Totals), iterations_ + 1.0},
                                {"allreduce", kBuckets * sizeof(std::uint64_t), 1.0 * iterations_},
                                {"allreduce", 2 * kBuckets * sizeof(std::uint64_t), 2.0 * iterations_}};
  }

 protected:
  void prepare_ranks(const Arrays* inputs, Arrays* outputs) override {
    long long n = 0;
    if (rank() == 0) {
      image_ = inputs->at("image").view<float>().data();
      n = static_cast<long long>(inputs->at("image").size());
      mask_ = outputs->at("mask").view<std::uint8_t>().data();
      statistics_ = outputs->at("statistics").view<double>().data();
    }
    LADDER_MPI(MPI_Bcast(&n, 1, MPI_LONG_LONG, 0, communicator()));
    parts_ = parts_of(n, ranks());
    sky_.resize(parts_.counts[rank()]);
    kept_.resize(parts_.counts[rank()]);
    candidates_.resize(parts_.counts[rank()]);
    part_mask_.resize(parts_.counts[rank()]);
  }

  // Upload: each rank its rows of the sky.
  void scatter() override {
    LADDER_MPI(MPI_Scatterv(image_, parts_.counts.data(), parts_.offsets.data(), MPI_FLOAT, sky_.data(), parts_.counts[rank()], MPI_FLOAT,
                            0, communicator()));
  }

  void compute_ranks() override {
    const double infinity = std::numeric_limits<double>::infinity();
    // Sums shifted by one value every rank agrees on (rank 0's first), so that they stay small.
    double shift = rank() == 0 && !sky_.empty() ? sky_[0] : 0.0;
    LADDER_MPI(MPI_Bcast(&shift, 1, MPI_DOUBLE, 0, communicator()));
    compact(sky_.data(), sky_.size(), -infinity, infinity, shift);  // copies the sky in
    Totals totals = add_up();

    double kept_lower = -infinity, kept_upper = infinity;
    ClipStatistics stats;
    while (true) {
      ++stats.iterations;
      const double n = totals.count, offset = totals.sum / n;
      stats.mean = shift + offset;
      stats.std = std::sqrt(std::max(0.0, totals.squares / n - offset * offset));
      stats.median = median(static_cast<std::size_t>(totals.count));
      stats.lower = stats.median - kappa_ * stats.std;
      stats.upper = stats.median + kappa_ * stats.std;
      kept_lower = std::max(kept_lower, stats.lower);
      kept_upper = std::min(kept_upper, stats.upper);

      // Each rank compacts its own kept values: no rank's values ever move to another.
      shift = stats.median;
      compact(kept_.data(), kept_count_, stats.lower, stats.upper, shift);
      const Totals after = add_up();
      const bool removed_nothing = after.count == totals.count;
      totals = after;
      if (removed_nothing || totals.count == 0) break;
    }
    stats.count = static_cast<std::size_t>(totals.count);
    iterations_ = stats.iterations;

    for (std::size_t i = 0; i < sky_.size(); ++i) part_mask_[i] = sky_[i] > kept_lower && sky_[i] < kept_upper;
    if (rank() == 0) kappa_sigma::store_statistics(stats, {statistics_, 7});
  }

  // Download: the mask's parts back to rank 0 (the statistics are there already).
  void gather() override {
    LADDER_MPI(MPI_Gatherv(part_mask_.data(), parts_.counts[rank()], MPI_UNSIGNED_CHAR, mask_, parts_.counts.data(), parts_.offsets.data(),
                           MPI_UNSIGNED_CHAR, 0, communicator()));
  }

 private:
  struct Totals {
    double count = 0, sum = 0, squares = 0;
  };

  // Keeps the `count` values at `in` strictly inside (lower, upper), packed
  // at the start of kept_ (in place when `in` is kept_), histograms their
  // first digit into counts_[0] and sums them shifted by `shift`: this
  // rank's totals, mine_.
  void compact(const float* in, std::size_t count, double lower, double upper, double shift) {
    float* out = kept_.data();
    std::fill(counts_[0].begin(), counts_[0].end(), 0);
    std::size_t kept = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const float x = in[i];
      if (!(x > lower && x < upper)) continue;
      out[kept++] = x;
      ++counts_[0][first_digit(x)];
    }
    kept_count_ = kept;
    // The sums in a loop of their own over the values still in cache (the openmp rung's `simd reduction`).
    double sum = 0, squares = 0;
#pragma omp simd reduction(+ : sum, squares)
    for (std::size_t i = 0; i < kept; ++i) {
      const double d = double{out[i]} - shift;
      sum += d, squares += d * d;
    }
    mine_ = {static_cast<double>(kept), sum, squares};
  }

  // The count and the sums of every rank's kept values: one allreduce of three doubles.
  Totals add_up() const {
    Totals all;
    LADDER_MPI(MPI_Allreduce(&mine_, &all, 3, MPI_DOUBLE, MPI_SUM, communicator()));
    return all;
  }

  // The median of the n kept values of all ranks: the two middle values
  // (ranks (n-1)/2 and n/2, one value when n is odd) found a digit a round.
  // Each round, every rank counts the digit of its values that share the
  // digits found so far (the first digit was counted while compacting),
  // and one allreduce adds the counts of all ranks.
  double median(std::size_t n) {
    std::array<Target, 2> targets = middle_values(n);
    for (int pass = 0; pass < kDigits; ++pass) {
      if (pass > 0) histogram(pass, targets);
      // One histogram while both middle values share their digits so far (every rank knows alike).
      const bool shared = pass == 0 || targets[0].prefix == targets[1].prefix;
      std::array<std::array<std::uint64_t, kBuckets>, 2> all;
      LADDER_MPI(MPI_Allreduce(counts_.data(), all.data(), (shared ? 1 : 2) * kBuckets, MPI_UINT64_T, MPI_SUM, communicator()));
      for (std::size_t t = 0; t < 2; ++t) {
        select_digit(targets[t], pass, [&](std::size_t bucket) { return all[shared ? 0 : t][bucket]; });
      }
    }
    return median_of(targets);
  }

  // Histograms digit `pass` of this rank's values whose higher digits are a
  // target's prefix. Pass 1 reads every kept value and gathers those
  // candidates into candidates_; pass 2 reads the candidates only.
  void histogram(int pass, const std::array<Target, 2>& targets) {
    const bool gather = pass == 1;
    const float* in = gather ? kept_.data() : candidates_.data();
    const std::size_t count = gather ? kept_count_ : candidates_count_;
    const std::size_t gathered = count_digit(pass, targets, in, count, counts_, gather ? candidates_.data() : nullptr);
    if (gather) candidates_count_ = gathered;
  }

  double kappa_;
  const float* image_ = nullptr;    // rank 0 only: the harness's arrays
  std::uint8_t* mask_ = nullptr;
  double* statistics_ = nullptr;
  Parts parts_;  // every rank's part
  std::vector<float> sky_;           // this rank's part
  std::vector<float> kept_;          // its kept values, packed at the start
  std::size_t kept_count_ = 0;
  std::vector<float> candidates_;    // its kept values in the middle values' buckets
  std::size_t candidates_count_ = 0;
  Totals mine_;                      // this rank's count and sums, from the last compact()
  std::array<std::array<std::uint64_t, kBuckets>, 2> counts_{};  // this rank's histograms, one per middle value
  std::vector<std::uint8_t> part_mask_;
  std::size_t iterations_ = 0;  // of the last compute
};

}  // namespace
LADDER_REGISTER_RUNG(kappa_sigma, mpi, MpiKappaSigma);
}  // namespace ladder
