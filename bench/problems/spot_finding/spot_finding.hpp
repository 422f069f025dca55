#pragma once
// spot_finding (bench/problems/spot_finding/README.md), what every rung and test shares: the
// parameters with their defaults, the shape of a stack, DIALS' dispersion
// test on one pixel's window sums, and the spot table that is built from a
// signal mask.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ladder/array.hpp"
#include "ladder/params.hpp"

namespace ladder::spot_finding {

// The largest kernel half-size: with a window of at most 31 × 31 pixels,
// m · Σv² < 961² · 65535² < 2^53, so every term of DIALS' `a` is an exact
// integer in double and the window sums fit the rungs' integer types.
constexpr int kMaxKernelSize = 15;

// DIALS' parameters (the defaults are DIALS' and the specification's). `solve`
// passes only what the command line names, so every field has its default.
struct Settings {
  int kernel_size = 3;  // half-size k: the window is (2k + 1)² pixels
  double sigma_b = 6;
  double sigma_s = 3;
  std::uint32_t min_count = 2;
  double threshold = 0;
  int window() const { return (2 * kernel_size + 1) * (2 * kernel_size + 1); }
};
// The parameters' values over the defaults; UsageError when min_count is
// outside [2, window size] (the one rule a parameter's own range cannot say).
Settings settings_of(const Params& params);

// A 2-D image is a stack of one frame.
struct Stack {
  std::size_t frames = 0, height = 0, width = 0;
  std::size_t frame_pixels() const { return height * width; }
  std::size_t pixels() const { return frames * height * width; }
};
Stack stack_of(const Array& image);

// DIALS' DispersionThreshold for one valid pixel of value v whose window
// holds m valid pixels with Σv = x and Σv² = y (exact integers). The four
// comparisons are DIALS' (threshold/local.h), in double, in its order of
// operations, so that the mask is DIALS' bit for bit. x >= 0 always holds:
// the sums are unsigned.
inline bool dispersion_test(std::uint32_t m, std::uint64_t x, std::uint64_t y, std::uint16_t v, const Settings& s) {
  if (m < s.min_count || !(v > s.threshold)) return false;
  const double dm = m, dx = static_cast<double>(x), dy = static_cast<double>(y);
  const double a = dm * dy - dx * dx - dx * (dm - 1);  // the window's dispersion, times m²
  const double b = dm * v - dx;                        // the pixel above the window's mean, times m
  const double c = dx * s.sigma_b * std::sqrt(2 * (dm - 1));
  const double d = s.sigma_s * std::sqrt(dx * dm);
  return a > c && b > d;
}

// One spot: a 4-connected component of signal pixels within a frame.
// Centroid of the pixel centres (x + 0.5, y + 0.5) weighted by intensity;
// bounding box half-open, [x0, x1) × [y0, y1), as DIALS writes it.
struct Spot {
  std::size_t frame = 0;
  std::size_t pixels = 0;
  std::uint64_t intensity = 0;
  double x = 0, y = 0;
  std::size_t x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  bool operator==(const Spot&) const = default;
};
constexpr std::size_t kMinSpotPixels = 3;
constexpr std::size_t kMaxSpotPixels = 1000;

// The spots of a signal mask, frame by frame, each frame's in raster order
// of their first pixel; only those of 3 to 1000 pixels. A two-pass
// union-find per frame (the labelling exercise's serial idea). Every rung
// and `solve` use this one function, so equal masks give equal tables.
std::vector<Spot> find_spots(std::span<const std::uint16_t> image, std::span<const std::uint8_t> signal,
                             const Stack& stack);

// The table as CSV, one spot a line, centroids with 17 significant digits.
std::string spots_csv(const std::vector<Spot>& spots);

}  // namespace ladder::spot_finding
