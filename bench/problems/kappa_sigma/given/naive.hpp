#pragma once
// naive: the lesson's loop written the obvious way. Each iteration copies
// the kept pixels out, sorts them all to read the median off the middle,
// sums twice for the mean and the std, then clears the mask of the pixels
// outside the bounds. The full sort, O(n log n) per iteration, dominates.
//
// Given to both tracks: the participant's track builds it too (naive.cpp
// registers it), so that there is always a working rung to compare
// against. A header, so that the tests derive their planted mistakes
// from it.
#include <algorithm>
#include <cmath>
#include <vector>

#include "bench/problems/kappa_sigma/given/sky_rung.hpp"

namespace ladder::kappa_sigma {

class NaiveKappaSigma : public SkyRung<HostRung> {
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
      const double centre = bounds_centre(stats);
      stats.lower = centre - kappa_ * stats.std;
      stats.upper = centre + kappa_ * stats.std;

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
    store_statistics(stats, statistics_);
  }

 protected:
  // The centre of the bounds: the median. A function of its own, once per
  // iteration, because the tests plant a mistake here.
  virtual double bounds_centre(const ClipStatistics& stats) const { return stats.median; }
};

}  // namespace ladder::kappa_sigma
