// The synthetic radio sky and the reference kappa-sigma clip. In NumPy,
// with uniform_float64(stream, i) as in ladder/random.hpp:
//
//   i = np.arange(H * W, dtype=np.uint64)
//   u1, u2 = uniform_float64(0, 2 * i), uniform_float64(0, 2 * i + 1)
//   sky = 0.0133 * np.sqrt(-2 * np.log1p(-u1)) * np.cos(2 * np.pi * u2)
//   sky = sky.reshape(H, W)                              # float64 noise
//   for s in range(round(H * W / 14000)):                # the sources, in order
//       u = [uniform_float64(1, 8 * s + k) for k in range(5)]
//       cx, cy = u[0] * W, u[1] * H
//       amplitude = 0.05 * 40 ** u[2]                    # 0.05 to 2, log-uniform
//       sigma = 2 + 6 * u[4] if u[3] < 0.2 else 1.2      # extended, or the beam
//       r = ceil(4 * sigma); rows and columns within r of (cy, cx), clipped:
//       sky[y, x] += amplitude * exp(-((x - cx)**2 + (y - cy)**2) / (2 * sigma**2))
//   sky = sky.astype(np.float32)
//
// (exp may differ by an ulp between libraries; in float32 that almost never shows.)
#include "bench/problems/radio_sky.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "ladder/random.hpp"

namespace ladder {
namespace {

constexpr double kNoiseSigma = 0.0133;       // Jy/beam, as in the lesson's GMRT image
constexpr double kPixelsPerSource = 14000;   // about 300 sources on 2048²
constexpr double kMinAmplitude = 0.05, kAmplitudeRange = 40;  // 0.05 to 2
constexpr double kExtendedFraction = 0.2;
constexpr double kBeamSigma = 1.2, kExtendedSigmaMin = 2, kExtendedSigmaRange = 6;

struct Source {
  double cx, cy, amplitude, sigma;
  long radius;
};

std::vector<Source> draw_sources(std::size_t height, std::size_t width, std::uint64_t seed) {
  const auto count = static_cast<std::size_t>(std::llround(double(height) * double(width) / kPixelsPerSource));
  const CounterRng rng(seed, 1);
  std::vector<Source> sources;
  for (std::size_t s = 0; s < count; ++s) {
    auto u = [&](std::uint64_t k) { return rng.uniform_float64(8 * s + k); };
    Source source{.cx = u(0) * double(width),
                  .cy = u(1) * double(height),
                  .amplitude = kMinAmplitude * std::pow(kAmplitudeRange, u(2)),
                  .sigma = u(3) < kExtendedFraction ? kExtendedSigmaMin + kExtendedSigmaRange * u(4) : kBeamSigma,
                  .radius = 0};
    source.radius = static_cast<long>(std::ceil(4 * source.sigma));
    sources.push_back(source);
  }
  return sources;
}

double median_of(std::vector<float>& kept) {
  const std::size_t n = kept.size(), middle = n / 2;
  std::nth_element(kept.begin(), kept.begin() + static_cast<long>(middle), kept.end());
  const double upper_middle = kept[middle];
  if (n % 2 == 1) return upper_middle;
  const double lower_middle = *std::max_element(kept.begin(), kept.begin() + static_cast<long>(middle));
  return (lower_middle + upper_middle) / 2;
}

}  // namespace

Array generate_radio_sky(std::size_t height, std::size_t width, std::uint64_t seed) {
  const std::vector<Source> sources = draw_sources(height, width, seed);
  const CounterRng noise(seed, 0);
  Array sky(DType::f32, {height, width});
  float* pixels = sky.view<float>().data();
  const long rows = static_cast<long>(height);
  // Row by row in float64, then rounded once: no H×W float64 buffer.
#pragma omp parallel
  {
    std::vector<double> row(width);
#pragma omp for schedule(static)
    for (long y = 0; y < rows; ++y) {
      for (std::size_t x = 0; x < width; ++x) {
        const std::uint64_t i = static_cast<std::uint64_t>(y) * width + x;
        const double u1 = noise.uniform_float64(2 * i), u2 = noise.uniform_float64(2 * i + 1);
        row[x] = kNoiseSigma * std::sqrt(-2 * std::log1p(-u1)) * std::cos(2 * std::numbers::pi * u2);
      }
      for (const Source& source : sources) {
        const long cy = static_cast<long>(std::floor(source.cy)), cx = static_cast<long>(std::floor(source.cx));
        if (y < cy - source.radius || y > cy + source.radius) continue;
        const long first = std::max(0L, cx - source.radius);
        const long last = std::min(static_cast<long>(width) - 1, cx + source.radius);
        const double dy = double(y) - source.cy;
        for (long x = first; x <= last; ++x) {
          const double dx = double(x) - source.cx;
          row[x] += source.amplitude * std::exp(-(dx * dx + dy * dy) / (2 * source.sigma * source.sigma));
        }
      }
      for (std::size_t x = 0; x < width; ++x) pixels[y * width + x] = static_cast<float>(row[x]);
    }
  }
  return sky;
}

ClipStatistics clip_background(std::span<const float> values, double kappa, std::span<std::uint8_t> mask) {
  if (values.empty()) throw std::invalid_argument("clip_background: no values");
  std::fill(mask.begin(), mask.end(), std::uint8_t{1});
  ClipStatistics stats;
  stats.count = values.size();
  std::vector<float> kept(values.begin(), values.end());
  while (true) {
    ++stats.iterations;
    double sum = 0;
    for (float v : kept) sum += v;
    const double mean = sum / double(kept.size());
    double squares = 0;
    for (float v : kept) squares += (v - mean) * (v - mean);
    const double std = std::sqrt(squares / double(kept.size()));
    const double median = median_of(kept);
    stats.lower = median - kappa * std;
    stats.upper = median + kappa * std;

    kept.clear();
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (!mask[i]) continue;
      if (values[i] > stats.lower && values[i] < stats.upper)
        kept.push_back(values[i]);
      else
        mask[i] = 0;
    }
    if (kept.size() == stats.count || kept.empty()) {
      stats.count = kept.size();
      if (kept.empty()) {
        stats.median = stats.mean = stats.std = std::numeric_limits<double>::quiet_NaN();
      } else {
        stats.median = median, stats.mean = mean, stats.std = std;
      }
      return stats;
    }
    stats.count = kept.size();
  }
}

Array segment_sky(const Array& sky, double kappa, double threshold_in_stds) {
  const auto values = sky.view<float>();
  std::vector<std::uint8_t> kept(values.size());
  const double threshold = threshold_in_stds * clip_background(values, kappa, kept).std;
  Array segmented(DType::u8, sky.shape());
  auto out = segmented.view<std::uint8_t>();
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = values[i] > threshold ? 1 : 0;
  return segmented;
}

}  // namespace ladder
