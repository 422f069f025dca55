#pragma once
// What every kappa_sigma rung shares: kappa (kappa_of, the problem's own
// default), and the statistics output in the problem's order.
#include <cmath>
#include <limits>
#include <span>

#include "bench/problems/radio_sky.hpp"
#include "ladder/params.hpp"

namespace ladder::kappa_sigma {

using ladder::kappa_of;  // radio_sky.hpp: the problem's own

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
