#pragma once
// The synthetic radio sky of the GPU lesson's last episode, and its
// background statistics: shared by kappa_sigma (which clips it) and
// labelling (which segments it at 5 × the clipped std and labels it).
#include <cstddef>
#include <cstdint>
#include <span>

#include "ladder/array.hpp"
#include "ladder/params.hpp"

namespace ladder {

// Gaussian noise of sigma 0.0133 Jy/beam plus sources of amplitude 0.05 to
// 2 Jy/beam (log-uniform), one per 14,000 pixels (about 300 on 2048²), a
// fifth of them extended. float32 H×W. The NumPy form is in radio_sky.cpp.
Array generate_radio_sky(std::size_t height, std::size_t width, std::uint64_t seed);

// What kappa-sigma clipping leaves (bench/problems/kappa_sigma/README.md). `iterations` counts
// the passes that computed a median and a std; a pass that removes nothing
// ends the loop and is counted. If a pass removes every value (all values
// equal, so std = 0 and the strict bounds keep nothing; or kappa < 1 on
// few values), the loop ends there with count 0, and median, mean and std
// are NaN: the lesson's NumPy loop ends with an empty array too.
struct ClipStatistics {
  std::size_t count = 0;
  double median = 0, mean = 0, std = 0;
  std::size_t iterations = 0;
  double lower = 0, upper = 0;  // the last pass's bounds, exclusive
};

// kappa_sigma's kappa: --param kappa, or the lesson's 3 without it.
constexpr double kDefaultKappa = 3;
inline double kappa_of(const Params& params) { return params.has("kappa") ? params.number("kappa") : kDefaultKappa; }

// The reference: float64 throughout, exact selection, two-pass moments.
// Writes mask[i] = 1 for the values kept. values must not be empty.
ClipStatistics clip_background(std::span<const float> values, double kappa, std::span<std::uint8_t> mask);

// The lesson's segmentation: 1 where the sky is above 5 × the clipped std.
Array segment_sky(const Array& sky, double kappa = 3.0, double threshold_in_stds = 5.0);

}  // namespace ladder
