// spot_finding (bench/problems/spot_finding/README.md): X-ray diffraction spots, as DIALS finds
// them. For each frame of a uint16 stack, DIALS' DispersionThreshold marks
// the signal pixels: over the valid pixels of the (2k+1)² window clipped to
// the frame, m = count, x = Σv, y = Σv²; a pixel is signal when it is
// valid, m >= min_count, v > threshold, and the window is dispersed
// (a > c) and the pixel stands out (b > d). The output is the uint8 signal
// mask; `solve` writes the spot table (4-connected components of 3 to 1000
// pixels) beside it as CSV. The workshop stack is 32 Eiger-like modules of
// 512 × 1028: Poisson background, Gaussian Bragg spots, a mask with module
// edges, chip gaps, dead lines and a beam-stop shadow, saturated pixels.
#include "bench/problems/spot_finding/spot_finding.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <numbers>
#include <numeric>

#include "ladder/error.hpp"
#include "ladder/npy.hpp"
#include "ladder/number_text.hpp"
#include "ladder/random.hpp"
#include "ladder/registry.hpp"

namespace ladder {
namespace spot_finding {

Settings settings_of(const Params& params) {
  Settings s;
  if (params.has("kernel_size")) s.kernel_size = static_cast<int>(params.integer("kernel_size"));
  if (params.has("sigma_b")) s.sigma_b = params.number("sigma_b");
  if (params.has("sigma_s")) s.sigma_s = params.number("sigma_s");
  if (params.has("min_count")) s.min_count = static_cast<std::uint32_t>(params.integer("min_count"));
  if (params.has("threshold")) s.threshold = params.number("threshold");
  const int window = s.window();
  if (s.min_count > static_cast<std::uint32_t>(window))
    throw UsageError("parameter min_count=" + std::to_string(s.min_count) + " is more than the " +
                     std::to_string(window) + " pixels of the " + std::to_string(2 * s.kernel_size + 1) + "×" +
                     std::to_string(2 * s.kernel_size + 1) + " window (kernel_size=" + std::to_string(s.kernel_size) +
                     "); accepted: 2 to " + std::to_string(window));
  return s;
}

Stack stack_of(const Array& image) {
  const auto& shape = image.shape();
  if (shape.size() == 2) return {1, shape[0], shape[1]};
  return {shape.at(0), shape.at(1), shape.at(2)};
}

namespace {

// Union-find over a frame's provisional labels: the smaller label is
// always the root, so a component's root is the label of its first pixel.
std::uint32_t find_root(std::vector<std::uint32_t>& parent, std::uint32_t l) {
  while (parent[l] != l) l = parent[l] = parent[parent[l]];  // path halving
  return l;
}

}  // namespace

std::vector<Spot> find_spots(std::span<const std::uint16_t> image, std::span<const std::uint8_t> signal,
                             const Stack& stack) {
  struct Sums {
    std::size_t pixels = 0;
    std::uint64_t v = 0, vx = 0, vy = 0;  // Σv, Σv·x, Σv·y: exact
    std::size_t x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  };
  std::vector<Spot> spots;
  std::vector<std::uint32_t> labels(stack.frame_pixels()), parent(1);
  std::vector<Sums> sums;
  const std::size_t width = stack.width;
  for (std::size_t f = 0; f < stack.frames; ++f) {
    const std::size_t base = f * stack.frame_pixels();
    // First pass: a provisional label from the neighbour above or to the
    // left, uniting the two when both are signal.
    parent.assign(1, 0);
    for (std::size_t y = 0; y < stack.height; ++y)
      for (std::size_t x = 0; x < width; ++x) {
        const std::size_t i = y * width + x;
        if (!signal[base + i]) {
          labels[i] = 0;
          continue;
        }
        const std::uint32_t up = y > 0 ? labels[i - width] : 0, left = x > 0 ? labels[i - 1] : 0;
        if (up && left) {
          const std::uint32_t a = find_root(parent, up), b = find_root(parent, left);
          parent[std::max(a, b)] = std::min(a, b);
          labels[i] = std::min(a, b);
        } else if (up || left) {
          labels[i] = up | left;
        } else {
          labels[i] = static_cast<std::uint32_t>(parent.size());
          parent.push_back(labels[i]);
        }
      }
    // Second pass: every pixel's sums go to its root.
    sums.assign(parent.size(), Sums{});
    for (std::size_t y = 0; y < stack.height; ++y)
      for (std::size_t x = 0; x < width; ++x) {
        const std::size_t i = y * width + x;
        if (!labels[i]) continue;
        Sums& s = sums[find_root(parent, labels[i])];
        const std::uint64_t v = image[base + i];
        if (s.pixels++ == 0) s.x0 = x, s.x1 = x + 1, s.y0 = y;
        s.v += v, s.vx += v * x, s.vy += v * y;
        s.x0 = std::min(s.x0, x), s.x1 = std::max(s.x1, x + 1), s.y1 = y + 1;
      }
    for (std::uint32_t l = 1; l < parent.size(); ++l) {
      const Sums& s = sums[l];
      if (parent[l] != l || s.pixels < kMinSpotPixels || s.pixels > kMaxSpotPixels) continue;
      // Σv·(x + 0.5) / Σv as one division of exact integers: the same
      // double whatever order the pixels were summed in (Σv > 0: every
      // signal pixel has v > threshold >= 0).
      spots.push_back({.frame = f,
                       .pixels = s.pixels,
                       .intensity = s.v,
                       .x = static_cast<double>(2 * s.vx + s.v) / static_cast<double>(2 * s.v),
                       .y = static_cast<double>(2 * s.vy + s.v) / static_cast<double>(2 * s.v),
                       .x0 = s.x0,
                       .x1 = s.x1,
                       .y0 = s.y0,
                       .y1 = s.y1});
    }
  }
  return spots;
}

std::string spots_csv(const std::vector<Spot>& spots) {
  std::string text = "frame,pixels,intensity,centroid_x,centroid_y,bbox_x0,bbox_x1,bbox_y0,bbox_y1\n";
  char line[256];
  for (const Spot& s : spots) {
    std::snprintf(line, sizeof line, "%zu,%zu,%llu,%.17g,%.17g,%zu,%zu,%zu,%zu\n", s.frame, s.pixels,
                  static_cast<unsigned long long>(s.intensity), s.x, s.y, s.x0, s.x1, s.y0, s.y1);
    text += line;
  }
  return text;
}

}  // namespace spot_finding

namespace {

using spot_finding::Settings;
using spot_finding::Stack;

// The rungs index pixels with 32-bit integers and launch one CUDA grid
// layer per frame (gridDim.z <= 65535).
constexpr double kMaxPixels = std::numeric_limits<std::int32_t>::max();
constexpr double kMaxFrames = 65535;
constexpr std::uint16_t kSaturated = 65535;

// Random streams of the generator (CounterRng), one per kind of draw.
enum Stream : std::uint64_t { kPixels = 0, kSpots = 1, kDeadLines = 2, kHotPixels = 3, kStressMask = 4 };

// A Poisson draw of mean lambda from the uniform u (inversion; for large
// means the normal approximation, which is what a detector pixel sees).
std::uint16_t poisson(double lambda, double u, double u2) {
  double count = 0;
  if (lambda < 30) {
    double p = std::exp(-lambda), cumulative = p;
    while (u > cumulative && count < 200) {
      count += 1;
      p *= lambda / count;
      cumulative += p;
    }
  } else {
    const double gaussian = std::sqrt(-2 * std::log1p(-u)) * std::cos(2 * std::numbers::pi * u2);
    count = std::max(0.0, std::round(lambda + std::sqrt(lambda) * gaussian));
  }
  return static_cast<std::uint16_t>(std::min(count, double(kSaturated)));
}

// The detector's mask, the same on every frame: module edges, the gaps
// between its 256-pixel chips, one dead row and one dead column, and the
// shadow of the beam stop (a disc at the beam centre and its arm to the
// right-hand edge).
void detector_mask(std::span<std::uint8_t> mask, long height, long width, std::uint64_t seed) {
  const CounterRng rng(seed, kDeadLines);
  const long dead_row = rng.below(0, static_cast<std::uint32_t>(height));
  const long dead_column = rng.below(1, static_cast<std::uint32_t>(width));
  const double cy = 0.5 * height + 0.1, cx = 0.45 * width + 0.3;
  const double radius = 0.05 * std::min(height, width) + 1, arm = 0.3 * radius;
  for (long y = 0; y < height; ++y)
    for (long x = 0; x < width; ++x) {
      const bool edge = y == 0 || y == height - 1 || x == 0 || x == width - 1;
      const bool chip_gap = x % 257 == 256 || (height >= 512 && (y == height / 2 - 1 || y == height / 2));
      const bool dead = y == dead_row || x == dead_column;
      const double dy = y + 0.5 - cy, dx = x + 0.5 - cx;
      const bool beam_stop = dx * dx + dy * dy < radius * radius || (dx > 0 && std::abs(dy) < arm);
      mask[static_cast<std::size_t>(y * width + x)] = !(edge || chip_gap || dead || beam_stop);
    }
}

// One frame of a diffraction image: a smooth background (diffuse scatter
// around the beam and a solvent ring), Gaussian Bragg spots whose total
// counts span four decades (the brightest saturate at 65535), Poisson
// counting noise, and a few hot pixels.
void diffraction_frame(std::span<std::uint16_t> frame, std::size_t f, long height, long width, std::uint64_t seed) {
  const double cy = 0.5 * height + 0.1, cx = 0.45 * width + 0.3;
  const double reach = std::hypot(double(height), double(width)) / 2;
  std::vector<float> lambda(static_cast<std::size_t>(height * width));
  for (long y = 0; y < height; ++y)
    for (long x = 0; x < width; ++x) {
      const double r = std::hypot(y + 0.5 - cy, x + 0.5 - cx) / reach;
      const double ring = (r - 0.45) / 0.03;
      lambda[static_cast<std::size_t>(y * width + x)] =
          static_cast<float>(1.5 + 6 * std::exp(-r * r / 0.08) + 3 * std::exp(-ring * ring));
    }
  const CounterRng spots_rng(seed, kSpots);
  const std::size_t spots = std::max<std::size_t>(1, static_cast<std::size_t>(height * width / 3500));
  for (std::size_t s = 0; s < spots; ++s) {
    const std::uint64_t draw = (f * spots + s) * 4;
    const double sx = spots_rng.uniform_float64(draw) * width, sy = spots_rng.uniform_float64(draw + 1) * height;
    const double sigma = 0.6 + 1.4 * spots_rng.uniform_float64(draw + 2);
    const double total = 30 * std::pow(10.0, 4 * spots_rng.uniform_float64(draw + 3));  // 30 to 3·10^5 counts
    const double peak = total / (2 * std::numbers::pi * sigma * sigma);
    const long reach_px = static_cast<long>(std::ceil(4 * sigma));
    for (long y = std::max(0L, long(sy) - reach_px); y <= std::min(height - 1, long(sy) + reach_px); ++y)
      for (long x = std::max(0L, long(sx) - reach_px); x <= std::min(width - 1, long(sx) + reach_px); ++x) {
        const double dx = x + 0.5 - sx, dy = y + 0.5 - sy;
        lambda[static_cast<std::size_t>(y * width + x)] +=
            static_cast<float>(peak * std::exp(-(dx * dx + dy * dy) / (2 * sigma * sigma)));
      }
  }
  const CounterRng pixels(seed, kPixels), hot(seed, kHotPixels);
  const std::size_t base = f * static_cast<std::size_t>(height * width);
  for (std::size_t i = 0; i < lambda.size(); ++i) {
    const std::uint64_t n = base + i;
    frame[i] = hot.uniform_float64(n) < 2e-5
                   ? kSaturated
                   : poisson(lambda[i], pixels.uniform_float64(2 * n), pixels.uniform_float64(2 * n + 1));
  }
}

// The stress stack, for tests: values of every size (a tenth saturated, a
// tenth anywhere in [0, 65535], the rest small counts), a random mask whose
// density changes with the frame, and every fourth frame fully masked.
void stress_frame(std::span<std::uint16_t> frame, std::span<std::uint8_t> mask, std::size_t f, std::uint64_t seed) {
  const CounterRng pixels(seed, kPixels), masks(seed, kStressMask);
  const std::size_t base = f * frame.size();
  const double density = f % 4 == 3 ? 0 : f % 4 == 1 ? 1 : 0.6;
  for (std::size_t i = 0; i < frame.size(); ++i) {
    const std::uint64_t n = base + i;
    const double u = pixels.uniform_float64(2 * n), w = pixels.uniform_float64(2 * n + 1);
    frame[i] = u < 0.1   ? kSaturated
               : u < 0.2 ? static_cast<std::uint16_t>(w * 65536)
                         : static_cast<std::uint16_t>(w * 12);
    mask[i] = masks.uniform_float64(n) < density;
  }
}

class SpotFinding final : public Problem {
 public:
  std::string name() const override { return "spot_finding"; }
  std::string summary() const override {
    return "DIALS' dispersion threshold on a uint16 image stack: signal mask bit for bit, and the spot table";
  }
  std::vector<std::string> rungs() const override {
    return {"naive", "serial", "openmp", "opencl", "cuda", "cuda_sliding", "cuda_streams"};
  }

  std::vector<ParamSpec> params() const override {
    return {{"kernel_size", "half-size k of the (2k+1)² window (DIALS' default 3)", 1, spot_finding::kMaxKernelSize},
            {"sigma_b", "n_sigma_b: the window must be this dispersed (default 6)", 0, 1e6, false},
            {"sigma_s", "n_sigma_s: the pixel must stand this far above the window's mean (default 3)", 0, 1e6, false},
            {"min_count", "fewest valid pixels in a window (default 2; at most the window's size)", 2,
             double((2 * spot_finding::kMaxKernelSize + 1) * (2 * spot_finding::kMaxKernelSize + 1))},
            {"threshold", "global threshold: a signal pixel's value must exceed it (default 0)", 0, 65535, false},
            {.name = "gain",
             .description = "detector gain: 1 only (DIALS' formula without a gain map, its default)",
             .choices = {"1"}},
            {"frames", "frames in the stack", 1, kMaxFrames, true, true},
            {"height", "rows of a frame", 1, kMaxPixels, true, true},
            {"width", "columns of a frame", 1, kMaxPixels, true, true},
            {.name = "scene",
             .description = "diffraction: an Eiger-like detector's frames (background, Bragg spots, masked gaps and "
                            "beam stop); stress: values of every size, random masks, every fourth frame fully masked",
             .generator_only = true,
             .choices = {"diffraction", "stress"}}};
  }
  std::vector<SizePreset> sizes() const override {
    auto preset = [](const char* name, const char* frames, const char* height, const char* width) {
      return SizePreset{name,
                        {{"frames", frames},
                         {"height", height},
                         {"width", width},
                         {"scene", "diffraction"},
                         {"kernel_size", "3"},
                         {"sigma_b", "6"},
                         {"sigma_s", "3"},
                         {"min_count", "2"},
                         {"threshold", "0"},
                         {"gain", "1"}}};
    };
    return {preset("tiny", "3", "61", "67"), preset("workshop", "32", "512", "1028"),
            preset("large", "256", "512", "1028")};
  }
  std::vector<InputSpec> inputs() const override {
    return {{"image", "uint16 array, H×W or F×H×W"},
            {"mask", "uint8 array of the image's shape, 1 = valid pixel, 0 = masked"}};
  }

  std::vector<CheckCase> check_cases() const override {
    // Frames smaller than the window (1×1, 2×3, 6×6), a single row and a
    // single column, one frame, sizes that are no multiple of any tile, the
    // stress stack (saturated pixels, fully masked frames), every kernel
    // size from 1 to the largest, min_count at its ends, sigmas of 0, a
    // global threshold.
    auto make = [](const char* catches, const char* frames, const char* height, const char* width, const char* scene,
                   std::map<std::string, std::string> extra = {}) {
      extra.insert({{"frames", frames}, {"height", height}, {"width", width}, {"scene", scene}});
      return CheckCase{Params(extra), catches};
    };
    return {make("a 1 x 1 frame", "1", "1", "1", "stress"),
            make("a frame smaller than the window", "2", "2", "3", "stress"),
            make("a window clipped on every side, min_count 2", "4", "6", "6", "stress", {{"min_count", "2"}}),
            make("a frame the window just covers", "1", "7", "7", "diffraction"),
            make("a single row", "3", "1", "70", "stress"),
            make("a single column", "3", "70", "1", "stress"),
            make("a partial last tile", "1", "61", "67", "diffraction"),
            make("saturated pixels and fully masked frames", "8", "45", "39", "stress"),
            make("the seams between tiles: windows across them need a halo", "2", "130", "257", "diffraction"),
            make("the smallest window (3 x 3)", "5", "33", "65", "stress", {{"kernel_size", "1"}}),
            make("min_count the whole 5 x 5 window", "3", "61", "67", "diffraction",
                 {{"kernel_size", "2"}, {"min_count", "25"}}),
            make("sigmas of 0", "2", "40", "77", "stress", {{"kernel_size", "5"}, {"sigma_b", "0"}, {"sigma_s", "0"}}),
            make("the largest window (31 x 31): a halo of 15", "2", "70", "90", "diffraction",
                 {{"kernel_size", "15"}, {"min_count", "961"}}),
            make("a global threshold", "2", "64", "64", "stress", {{"kernel_size", "7"}, {"threshold", "10.5"}}),
            make("other sigmas, min_count the whole 7 x 7 window", "3", "61", "67", "diffraction",
                 {{"sigma_b", "2.5"}, {"sigma_s", "1.5"}, {"min_count", "49"}})};
  }

  // Under Oclgrind (check --race): frames smaller than the window, a single
  // row and a single column, tiles of 32 × 32 with partial ones at both
  // edges, kernel sizes 1, 2 and the largest (its halo fills local memory),
  // sigmas of 0 and a global threshold.
  std::vector<Params> simulator_cases() const override {
    auto make = [](const char* frames, const char* height, const char* width, const char* scene,
                   std::map<std::string, std::string> extra = {}) {
      extra.insert({{"frames", frames}, {"height", height}, {"width", width}, {"scene", scene}});
      return Params(extra);
    };
    return {make("1", "1", "1", "stress"),
            make("2", "2", "3", "stress"),
            make("1", "1", "70", "stress"),
            make("1", "70", "1", "stress"),
            make("2", "45", "39", "stress"),
            make("1", "33", "65", "stress", {{"kernel_size", "1"}}),
            make("1", "40", "37", "diffraction", {{"kernel_size", "2"}, {"min_count", "25"}}),
            make("1", "40", "35", "stress", {{"kernel_size", "5"}, {"sigma_b", "0"}, {"sigma_s", "0"}}),
            make("1", "35", "40", "diffraction", {{"kernel_size", "15"}, {"min_count", "961"}}),
            make("1", "33", "34", "stress", {{"kernel_size", "7"}, {"threshold", "10.5"}})};
  }

  Arrays generate(const Params& params, std::uint64_t seed) const override {
    spot_finding::settings_of(params);  // refuse a min_count the window cannot hold, before any work
    const auto frames = static_cast<std::size_t>(params.integer("frames"));
    const auto height = static_cast<std::size_t>(params.integer("height"));
    const auto width = static_cast<std::size_t>(params.integer("width"));
    refuse_too_many_pixels(double(frames) * double(height) * double(width));
    Arrays inputs{{"image", Array(DType::u16, {frames, height, width})},
                  {"mask", Array(DType::u8, {frames, height, width})}};
    auto image = inputs["image"].view<std::uint16_t>();
    auto mask = inputs["mask"].view<std::uint8_t>();
    const std::size_t n = height * width;
    const bool stress = params.text("scene") == "stress";
    if (!stress) detector_mask(mask.first(n), long(height), long(width), seed);
    const long count = static_cast<long>(frames);
#pragma omp parallel for schedule(dynamic)
    for (long f = 0; f < count; ++f) {
      const auto frame = static_cast<std::size_t>(f);
      if (stress) {
        stress_frame(image.subspan(frame * n, n), mask.subspan(frame * n, n), frame, seed);
      } else {
        diffraction_frame(image.subspan(frame * n, n), frame, long(height), long(width), seed);
        if (frame > 0) std::copy_n(mask.begin(), n, mask.begin() + frame * n);
      }
    }
    return inputs;
  }

  void validate(const Arrays& inputs, const Params& params) const override {
    spot_finding::settings_of(params);
    const Array& image = inputs.at("image");
    const Array& mask = inputs.at("mask");
    if (image.dtype() != DType::u16 || (image.shape().size() != 2 && image.shape().size() != 3))
      throw UsageError("input image is a " + image.describe() +
                       "; spot_finding takes a uint16 image, H×W or F×H×W (convert with image.astype(np.uint16))");
    if (mask.dtype() != DType::u8)
      throw UsageError("input mask is a " + mask.describe() +
                       "; spot_finding takes a uint8 mask, 1 = valid pixel (save a boolean mask with "
                       "mask.astype(np.uint8))");
    if (mask.shape() != image.shape())
      throw UsageError("input mask is a " + mask.describe() + " but the image is a " + image.describe() +
                       "; the mask must have the image's shape");
    if (image.size() == 0)
      throw UsageError("input image is a " + image.describe() +
                       ", which is empty; spot_finding needs at least one pixel");
    const Stack stack = spot_finding::stack_of(image);
    if (double(stack.frames) > kMaxFrames)
      throw UsageError("input image has " + std::to_string(stack.frames) +
                       " frames; spot_finding accepts at most 65535");
    refuse_too_many_pixels(double(image.size()));
    const auto values = mask.view<std::uint8_t>();
    const auto bad = std::find_if(values.begin(), values.end(), [](std::uint8_t v) { return v > 1; });
    if (bad != values.end()) {
      const auto i = static_cast<std::size_t>(bad - values.begin());
      throw UsageError("input mask holds " + std::to_string(+*bad) + " at (frame " +
                       std::to_string(i / stack.frame_pixels()) + ", row " +
                       std::to_string(i % stack.frame_pixels() / stack.width) + ", column " +
                       std::to_string(i % stack.width) + "); the mask takes 0 (masked) and 1 (valid) only");
    }
  }

  Arrays allocate_outputs(const Arrays& inputs, const Params&) const override {
    return {{"signal", Array(DType::u8, inputs.at("image").shape())}};
  }

  ArrayShapes input_shapes(const Params& params) const override {
    const std::vector<std::size_t> shape = {static_cast<std::size_t>(params.integer("frames")),
                                            static_cast<std::size_t>(params.integer("height")),
                                            static_cast<std::size_t>(params.integer("width"))};
    return {{"image", {DType::u16, shape}}, {"mask", {DType::u8, shape}}};
  }
  // The image and mask (and an OpenCL copy), the uint8 signal three times
  // (the reference's, the rung's, an OpenCL buffer), and solve's spot
  // table: find_spots' labels and sums of one frame, about 40 bytes a
  // frame pixel (the table itself is taken to be small: spots are sparse).
  // The rungs' summed-area tables hold bands of 64 rows.
  double host_bytes(const ArrayShapes& inputs, const Params&) const override {
    const auto& shape = inputs.at("image").shape;
    const double pixels = inputs.at("image").size();
    const double frame_pixels = shape.size() == 3 ? double(shape[1]) * double(shape[2]) : pixels;
    return 2 * total_bytes(inputs) + 3 * pixels + 40 * frame_pixels;
  }

  // The definition, pixel by pixel: the window's bounds clipped to the
  // frame, exact integer sums over its valid pixels, DIALS' test.
  Arrays reference(const Arrays& inputs, const Params& params) const override {
    const Settings s = spot_finding::settings_of(params);
    Arrays outputs = allocate_outputs(inputs, params);
    const Stack stack = spot_finding::stack_of(inputs.at("image"));
    const auto image = inputs.at("image").view<std::uint16_t>();
    const auto mask = inputs.at("mask").view<std::uint8_t>();
    auto signal = outputs["signal"].view<std::uint8_t>();
    const long k = s.kernel_size, height = long(stack.height), width = long(stack.width);
    const long rows = long(stack.frames) * height;
#pragma omp parallel for schedule(dynamic, 16)
    for (long row = 0; row < rows; ++row) {
      const long y = row % height;
      const std::size_t frame = static_cast<std::size_t>(row / height) * stack.frame_pixels();
      for (long x = 0; x < width; ++x) {
        const std::size_t p = frame + static_cast<std::size_t>(y * width + x);
        std::uint32_t m = 0;
        std::uint64_t sum = 0, squares = 0;
        for (long wy = std::max(0L, y - k); wy <= std::min(height - 1, y + k); ++wy)
          for (long wx = std::max(0L, x - k); wx <= std::min(width - 1, x + k); ++wx) {
            const std::size_t q = frame + static_cast<std::size_t>(wy * width + wx);
            if (!mask[q]) continue;
            const std::uint64_t v = image[q];
            m += 1, sum += v, squares += v * v;
          }
        signal[p] = mask[p] && spot_finding::dispersion_test(m, sum, squares, image[p], s);
      }
    }
    return outputs;
  }

  // The mask, bit for bit. The spot table follows from the image and the
  // mask by one function (find_spots), so equal masks give equal tables;
  // the tests check find_spots against an independent flood fill.
  CheckResult check(const Arrays& got, const Arrays& expected) const override {
    CheckResult result = check_identical(got, expected);
    if (result.ok) result.detail = "signal mask identical (and so the spot table)";
    return result;
  }

  // Minimum traffic: image (2 bytes) and mask (1) read, signal (1) written.
  // One "operation" per pixel, so that the rate reads as pixels per second.
  Work work(const Arrays& inputs, const Params&) const override {
    const double pixels = static_cast<double>(inputs.at("image").size());
    return {.bytes = 4 * pixels, .operations = pixels, .bytes_in = 3 * pixels, .bytes_out = pixels};
  }

  std::optional<Prediction> predict(const std::string& rung, const Params& params) const override {
    if (rung != "naive" && rung != "python_loops") return std::nullopt;
    const Settings s = spot_finding::settings_of(params);
    const double visits = static_cast<double>(params.integer("frames")) *
                          static_cast<double>(params.integer("height")) * static_cast<double>(params.integer("width")) *
                          s.window();
    // The pure-Python window: 6.6 s for 2 frames of 512 × 1028 on the development machine kind.
    if (rung == "python_loops")
      return Prediction{visits * 1.25e-7, "the window in pure Python, about 125 ns a pixel visited"};
    return Prediction{visits * kSecondsPerVisit, "the brute-force window visits (2k+1)² pixels for every pixel"};
  }

  // signal.npy, and the spot table beside it as signal.npy.csv, each written
  // through a temporary file; if the CSV cannot be written the mask is
  // removed again, so an error leaves neither.
  void save(const std::string& path, const Arrays& outputs, const Arrays& inputs, const Params&) const override {
    const Stack stack = spot_finding::stack_of(inputs.at("image"));
    const auto spots = spot_finding::find_spots(inputs.at("image").view<std::uint16_t>(),
                                                outputs.at("signal").view<std::uint8_t>(), stack);
    write_npy(path, outputs.at("signal"));
    try {
      write_file_atomically(path + ".csv", spot_finding::spots_csv(spots));
    } catch (...) {
      std::error_code ignored;
      std::filesystem::remove(path, ignored);
      throw;
    }
  }

 private:
  static void refuse_too_many_pixels(double pixels) {
    if (pixels > kMaxPixels)
      throw UsageError("the stack has " + number_text(pixels) +
                       " pixels; spot_finding accepts at most 2^31 - 1 = 2147483647 (the rungs index with int32)");
  }
  // Calibrated on the workshop stack (823 million window visits): naive took
  // 1.21 s on the 2-core development VM, 1.5 ns a visit.
  static constexpr double kSecondsPerVisit = 1.5e-9;
};

LADDER_REGISTER_PROBLEM(SpotFinding);

}  // namespace
}  // namespace ladder
