#pragma once
// median_filter (bench/problems/median_filter/README.md): what every rung of the exercise shares.
// The settings as the parameters give them (with `solve`'s defaults), the
// stack's shape, scipy's 'reflect' border rule, the remove-outlier choice,
// and the dispatch from an Array's dtype to a C++ type.
#include <cstddef>
#include <cstdint>
#include <string>

#include "ladder/array.hpp"
#include "ladder/error.hpp"
#include "ladder/params.hpp"

namespace ladder::median_filter {

struct Settings {
  int size = 3;                 // k: odd, 1 to 15
  bool remove_outlier = false;  // mode: median | remove_outlier
  double diff = 0;              // remove_outlier: the threshold
  bool bright = true;           // remove_outlier: bright (pixel above the median) or dark
  int radius() const { return size / 2; }
};

// `solve` passes only the parameters given on the command line: the
// defaults are size 3, mode median, diff 0, direction bright.
inline Settings settings_of(const Params& params) {
  Settings settings;
  if (params.has("size")) settings.size = static_cast<int>(params.integer("size"));
  if (params.has("mode")) settings.remove_outlier = params.text("mode") == "remove_outlier";
  if (params.has("diff")) settings.diff = params.number("diff");
  if (params.has("direction")) settings.bright = params.text("direction") == "bright";
  return settings;
}

// An H×W image is one frame; an F×H×W stack is F frames.
struct Stack {
  std::size_t frames = 1, height = 0, width = 0;
  std::size_t frame_pixels() const { return height * width; }
};
inline Stack stack_of(const Array& image) {
  const auto& shape = image.shape();
  if (shape.size() == 2) return {1, shape[0], shape[1]};
  return {shape[0], shape[1], shape[2]};
}

// scipy.ndimage's mode='reflect' (half-sample symmetric): d c b a | a b c d | d c b a.
// The pattern repeats with period 2n, so a window wider than the frame
// keeps bouncing between the two edges, as scipy does.
inline long reflect(long i, long n) {
  if (i >= 0 && i < n) return i;
  long j = i % (2 * n);
  if (j < 0) j += 2 * n;
  return j < n ? j : 2 * n - 1 - j;
}

// remove_outlier keeps the pixel unless it differs from the median by more
// than diff in the chosen direction. The difference is taken in float64, so
// that uint16 pixels do not wrap around below zero.
template <class T>
T choose(T pixel, T median, const Settings& settings) {
  if (!settings.remove_outlier) return median;
  const double difference = settings.bright ? double(pixel) - double(median) : double(median) - double(pixel);
  return difference > settings.diff ? median : pixel;
}

// Calls body(T{}) with T the C++ type of the image's dtype.
template <class Body>
void with_pixel_type(DType dtype, Body&& body) {
  switch (dtype) {
    case DType::f32: body(float{}); return;
    case DType::f64: body(double{}); return;
    case DType::u16: body(std::uint16_t{}); return;
    default: throw UsageError("median_filter takes float32, float64 or uint16 images, not " + dtype_name(dtype));
  }
}

}  // namespace ladder::median_filter
