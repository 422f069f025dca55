#pragma once
// What every kappa_sigma rung shares: kappa (default 3, as in `solve`
// without --param kappa), and the statistics output in the problem's order.
#include <cmath>
#include <limits>
#include <span>

#include "bench/problems/radio_sky.hpp"
#include "ladder/params.hpp"

namespace ladder::kappa_sigma {

inline double kappa_of(const Params& params) { return params.has("kappa") ? params.number("kappa") : 3.0; }

// count, median, mean, std, iterations, lower, upper; NaN for median, mean
// and std when nothing was kept.
inline void store_statistics(const ClipStatistics& stats, std::span<double> out) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const bool empty = stats.count == 0;
  out[0] = static_cast<double>(stats.count);
  out[1] = empty ? nan : stats.median;
  out[2] = empty ? nan : stats.mean;
  out[3] = empty ? nan : stats.std;
  out[4] = static_cast<double>(stats.iterations);
  out[5] = stats.lower;
  out[6] = stats.upper;
}

}  // namespace ladder::kappa_sigma
