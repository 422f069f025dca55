// serial: selection instead of sorting, and compaction in place. The kept
// values live packed at the front of one work buffer; std::nth_element puts
// the middle one in place in O(n). The compaction pass that drops the clipped
// values also sums the survivors (shifted by the median, so that the sums
// stay small and a constant image gives a std of exactly 0), which hands the
// next iteration its mean and std without another pass. The mask is written
// once at the end: the kept set is every value strictly between the largest
// lower bound and the smallest upper bound of all the passes.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "bench/problems/kappa_sigma/given/sky_rung.hpp"

namespace ladder {
namespace {

class SerialKappaSigma final : public kappa_sigma::SkyRung<HostRung> {
 public:
  using SkyRung::SkyRung;

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    SkyRung::prepare(inputs, outputs);
    work_.resize(image_.size());
  }

  void compute() override {
    float* kept = work_.data();
    std::size_t n = image_.size();
    double shift = image_[0], sum = 0, squares = 0;  // Σ(x - shift), Σ(x - shift)²
    for (std::size_t i = 0; i < n; ++i) {
      kept[i] = image_[i];
      const double d = image_[i] - shift;
      sum += d, squares += d * d;
    }
    double kept_lower = -std::numeric_limits<double>::infinity(), kept_upper = -kept_lower;
    ClipStatistics stats;
    while (true) {
      ++stats.iterations;
      const double offset = sum / double(n);
      stats.mean = shift + offset;
      stats.std = std::sqrt(std::max(0.0, squares / double(n) - offset * offset));

      const std::size_t middle = n / 2;
      std::nth_element(kept, kept + middle, kept + n);
      stats.median = kept[middle];
      if (n % 2 == 0) stats.median = (double{*std::max_element(kept, kept + middle)} + stats.median) / 2;
      stats.lower = stats.median - kappa_ * stats.std;
      stats.upper = stats.median + kappa_ * stats.std;
      kept_lower = std::max(kept_lower, stats.lower);
      kept_upper = std::min(kept_upper, stats.upper);

      std::size_t survivors = 0;
      shift = stats.median, sum = 0, squares = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const float x = kept[i];
        if (x > stats.lower && x < stats.upper) {
          kept[survivors++] = x;
          const double d = x - shift;
          sum += d, squares += d * d;
        }
      }
      const bool removed_nothing = survivors == n;
      n = survivors;
      if (removed_nothing || n == 0) break;
    }
    stats.count = n;
    for (std::size_t i = 0; i < image_.size(); ++i) mask_[i] = image_[i] > kept_lower && image_[i] < kept_upper;
    kappa_sigma::store_statistics(stats, statistics_);
  }

 private:
  std::vector<float> work_;
};

}  // namespace
LADDER_REGISTER_RUNG(kappa_sigma, serial, SerialKappaSigma);
}  // namespace ladder
