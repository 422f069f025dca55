// naive: the lesson's loop written the obvious way. Each iteration copies
// the kept pixels out, sorts them all to read the median off the middle,
// sums twice for the mean and the std, then clears the mask of the pixels
// outside the bounds. The full sort, O(n log n) per iteration, dominates.
//
// Given to both tracks: the participant's track builds this file too, so
// that there is always a working rung to compare against.
#include <algorithm>
#include <cmath>
#include <vector>

#include "bench/problems/kappa_sigma/given/sky_rung.hpp"

namespace ladder {
namespace {

class NaiveKappaSigma final : public kappa_sigma::SkyRung<HostRung> {
 public:
  using SkyRung::SkyRung;

  void compute() override {
    std::fill(mask_.begin(), mask_.end(), std::uint8_t{1});
    ClipStatistics stats;
    stats.count = image_.size();
    while (true) {
      ++stats.iterations;
      std::vector<float> kept;
      for (std::size_t i = 0; i < image_.size(); ++i)
        if (mask_[i]) kept.push_back(image_[i]);
      std::sort(kept.begin(), kept.end());

      const std::size_t n = kept.size();
      stats.median = n % 2 == 1 ? double{kept[n / 2]} : (double{kept[n / 2 - 1]} + double{kept[n / 2]}) / 2;
      double sum = 0;
      for (float x : kept) sum += x;
      stats.mean = sum / double(n);
      double squares = 0;
      for (float x : kept) squares += (x - stats.mean) * (x - stats.mean);
      stats.std = std::sqrt(squares / double(n));
      stats.lower = stats.median - kappa_ * stats.std;
      stats.upper = stats.median + kappa_ * stats.std;

      std::size_t removed = 0;
      for (std::size_t i = 0; i < image_.size(); ++i) {
        if (mask_[i] && !(image_[i] > stats.lower && image_[i] < stats.upper)) {
          mask_[i] = 0;
          ++removed;
        }
      }
      stats.count -= removed;
      if (removed == 0 || stats.count == 0) break;
    }
    kappa_sigma::store_statistics(stats, statistics_);
  }
};

}  // namespace
LADDER_REGISTER_RUNG(kappa_sigma, naive, NaiveKappaSigma);
}  // namespace ladder
