// spot_finding: every rung gives the reference's signal mask bit for bit
// (and so the same spot table) on stacks of awkward sizes: frames smaller
// than the window, single rows and columns, one frame, fully masked frames,
// saturated pixels, every kernel size, a 2-D image. The reference agrees
// with a brute force written independently here, the spot table with a
// flood fill written here, and bad inputs are refused with one message.
// Rungs that cannot run here are skipped, never passed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

#include "bench/problems/spot_finding/spot_finding.hpp"
#include "ladder/error.hpp"
#include "ladder/harness.hpp"
#include "ladder/registry.hpp"
#include "rung_test.hpp"

namespace ladder {
namespace {

using spot_finding::Spot;
using spot_finding::Stack;

Params stack_params(const std::string& frames, const std::string& height, const std::string& width,
                    const std::string& scene, std::map<std::string, std::string> extra = {}) {
  extra.insert({{"frames", frames}, {"height", height}, {"width", width}, {"scene", scene}});
  return Params(extra);
}

std::vector<std::uint8_t> signal_of(const Arrays& outputs) {
  auto signal = outputs.at("signal").view<std::uint8_t>();
  return {signal.begin(), signal.end()};
}

// DIALS' test written out again from bench/problems/spot_finding/README.md, with the window's
// valid values gathered into a list first: a different road to the same
// sums. The four comparisons must be DIALS' doubles, in DIALS' order.
std::vector<std::uint8_t> brute_force(const Arrays& inputs, const spot_finding::Settings& s) {
  const Stack stack = spot_finding::stack_of(inputs.at("image"));
  const auto image = inputs.at("image").view<std::uint16_t>();
  const auto mask = inputs.at("mask").view<std::uint8_t>();
  const long h = long(stack.height), w = long(stack.width), k = s.kernel_size;
  std::vector<std::uint8_t> out(image.size(), 0);
  std::vector<std::int64_t> window;
  for (std::size_t f = 0; f < stack.frames; ++f)
    for (long y = 0; y < h; ++y)
      for (long x = 0; x < w; ++x) {
        auto at = [&](long yy, long xx) { return f * stack.frame_pixels() + std::size_t(yy * w + xx); };
        window.clear();
        for (long yy = y - k; yy <= y + k; ++yy)
          for (long xx = x - k; xx <= x + k; ++xx)
            if (yy >= 0 && yy < h && xx >= 0 && xx < w && mask[at(yy, xx)] == 1) window.push_back(image[at(yy, xx)]);
        const double m = double(window.size());
        const double sum = double(std::accumulate(window.begin(), window.end(), std::int64_t{0}));
        const double squares =
            double(std::inner_product(window.begin(), window.end(), window.begin(), std::int64_t{0}));
        const double v = image[at(y, x)];
        if (mask[at(y, x)] != 1 || m < s.min_count || sum < 0 || !(v > s.threshold)) continue;
        const double a = m * squares - sum * sum - sum * (m - 1);
        const double b = m * v - sum;
        const double c = sum * s.sigma_b * std::sqrt(2 * (m - 1));
        const double d = s.sigma_s * std::sqrt(sum * m);
        out[at(y, x)] = a > c && b > d;
      }
  return out;
}

// The spot table by a breadth-first flood fill from each unvisited signal
// pixel in raster order, sums in 64-bit integers.
std::vector<Spot> flood_fill_spots(std::span<const std::uint16_t> image, std::span<const std::uint8_t> signal,
                                   const Stack& stack) {
  std::vector<Spot> spots;
  std::vector<char> seen(signal.size(), 0);
  const long h = long(stack.height), w = long(stack.width);
  for (std::size_t f = 0; f < stack.frames; ++f) {
    const std::size_t base = f * stack.frame_pixels();
    for (long start = 0; start < h * w; ++start) {
      if (!signal[base + std::size_t(start)] || seen[base + std::size_t(start)]) continue;
      std::vector<long> queue{start};
      seen[base + std::size_t(start)] = 1;
      std::uint64_t sum = 0, sum_x = 0, sum_y = 0;
      long x0 = w, x1 = 0, y0 = h, y1 = 0;
      for (std::size_t head = 0; head < queue.size(); ++head) {
        const long y = queue[head] / w, x = queue[head] % w;
        const std::uint64_t v = image[base + std::size_t(queue[head])];
        sum += v, sum_x += v * std::uint64_t(x), sum_y += v * std::uint64_t(y);
        x0 = std::min(x0, x), x1 = std::max(x1, x + 1), y0 = std::min(y0, y), y1 = std::max(y1, y + 1);
        const long steps[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        for (const auto& step : steps) {
          const long ny = y + step[0], nx = x + step[1];
          const std::size_t j = base + std::size_t(ny * w + nx);
          if (ny < 0 || ny >= h || nx < 0 || nx >= w || !signal[j] || seen[j]) continue;
          seen[j] = 1;
          queue.push_back(ny * w + nx);
        }
      }
      if (queue.size() < 3 || queue.size() > 1000) continue;
      spots.push_back({.frame = f,
                       .pixels = queue.size(),
                       .intensity = sum,
                       .x = double(2 * sum_x + sum) / double(2 * sum),
                       .y = double(2 * sum_y + sum) / double(2 * sum),
                       .x0 = std::size_t(x0),
                       .x1 = std::size_t(x1),
                       .y0 = std::size_t(y0),
                       .y1 = std::size_t(y1)});
    }
  }
  return spots;
}

// One rung's output on these inputs; nullopt (and the test skipped) when
// the rung cannot run here.
std::optional<Arrays> run_rung(const std::string& rung, const Arrays& inputs, const Params& params,
                               bool pinned = false) {
  auto problem = make_problem("spot_finding");
  const RungEntry* entry = find_rung("spot_finding", rung);
  if (entry == nullptr) return std::nullopt;
  RunOptions options;
  options.pinned = pinned;
  if (!backend_availability(entry->backend, options).available) return std::nullopt;
  return run_once(*entry, inputs, params, options, *problem);
}

std::string skip_reason(const std::string& rung) {
  const RungEntry* entry = find_rung("spot_finding", rung);
  if (entry == nullptr) return rung + " is not built in this build";
  return backend_availability(entry->backend, RunOptions{}).reason;
}

using testing::expect_usage_error;
using testing::RungCase;

class SpotFindingRungTest : public ::testing::TestWithParam<RungCase> {};

TEST_P(SpotFindingRungTest, GivesTheReferenceMaskBitForBitOnEveryCase) {
  // Beyond the check cases: many GPU tiles and the OpenMP bands' edges
  // (heights around multiples of 64), a tall narrow stack, saturated frames.
  const std::vector<Params> extra = {stack_params("3", "517", "1030", "diffraction"),
                                     stack_params("5", "129", "200", "stress"),
                                     stack_params("2", "300", "33", "stress", {{"kernel_size", "4"}}),
                                     stack_params("1", "191", "64", "diffraction", {{"kernel_size", "6"}}),
                                     // every half-size the sliding kernel compiles (1, 2, 3), on even
                                     // and odd widths, frames shorter than its 64-row runs and taller
                                     stack_params("2", "70", "130", "stress", {{"kernel_size", "1"}}),
                                     stack_params("3", "133", "67", "diffraction", {{"kernel_size", "2"}}),
                                     stack_params("2", "9", "2", "stress", {{"kernel_size", "2"}})};
  testing::expect_rung_matches_reference("spot_finding", GetParam(), extra);
}

TEST_P(SpotFindingRungTest, GivesTheSpotTableOfAFloodFill) {
  auto problem = make_problem("spot_finding");
  for (const Params& overrides :
       {stack_params("4", "200", "300", "diffraction"), stack_params("4", "40", "50", "stress")}) {
    const Params params = problem->resolve("tiny", overrides);
    const Arrays inputs = problem->generate(params, 7);
    const auto got = run_rung(GetParam().rung, inputs, params, GetParam().pinned);
    if (!got) GTEST_SKIP() << skip_reason(GetParam().rung);
    const Stack stack = spot_finding::stack_of(inputs.at("image"));
    const auto image = inputs.at("image").view<std::uint16_t>();
    const auto spots = spot_finding::find_spots(image, got->at("signal").view<std::uint8_t>(), stack);
    const auto expected =
        flood_fill_spots(image, problem->reference(inputs, params).at("signal").view<std::uint8_t>(), stack);
    EXPECT_EQ(spots, expected);
    if (overrides.text("scene") == "diffraction") {
      EXPECT_GT(spots.size(), 20u);
    }
  }
}

TEST_P(SpotFindingRungTest, TakesA2DImageAsAStackOfOneFrame) {
  auto problem = make_problem("spot_finding");
  const Params params = problem->resolve("tiny", stack_params("1", "77", "131", "diffraction"));
  const Arrays stack = problem->generate(params, 3);
  Arrays image{{"image", Array(DType::u16, {77, 131})}, {"mask", Array(DType::u8, {77, 131})}};
  std::ranges::copy(stack.at("image").view<std::uint16_t>(), image["image"].view<std::uint16_t>().begin());
  std::ranges::copy(stack.at("mask").view<std::uint8_t>(), image["mask"].view<std::uint8_t>().begin());
  ASSERT_NO_THROW(problem->validate(image, {}));
  // `solve` passes only the command line's parameters: the rungs fall back to DIALS' defaults.
  const auto got = run_rung(GetParam().rung, image, {}, GetParam().pinned);
  if (!got) GTEST_SKIP() << skip_reason(GetParam().rung);
  EXPECT_EQ(got->at("signal").shape(), (std::vector<std::size_t>{77, 131}));
  EXPECT_EQ(signal_of(*got), signal_of(problem->reference(stack, params)));
}

TEST_P(SpotFindingRungTest, MarksNothingInAFullyMaskedStackAndNothingWhereTheMaskIsZero) {
  auto problem = make_problem("spot_finding");
  const Params params = problem->resolve("tiny", stack_params("3", "40", "45", "diffraction"));
  Arrays inputs = problem->generate(params, 5);
  auto mask = inputs["mask"].view<std::uint8_t>();
  std::fill(mask.begin(), mask.begin() + 40 * 45, 0);  // frame 0 fully masked
  const auto got = run_rung(GetParam().rung, inputs, params, GetParam().pinned);
  if (!got) GTEST_SKIP() << skip_reason(GetParam().rung);
  const auto signal = signal_of(*got);
  EXPECT_EQ(signal, signal_of(problem->reference(inputs, params)));
  for (std::size_t i = 0; i < signal.size(); ++i) ASSERT_TRUE(mask[i] || !signal[i]) << "pixel " << i;
}

INSTANTIATE_TEST_SUITE_P(Rungs, SpotFindingRungTest, ::testing::ValuesIn(testing::rung_cases("spot_finding")),
                         testing::rung_case_name);

TEST(SpotFindingTest, ReferenceAgreesWithAnIndependentBruteForce) {
  auto problem = make_problem("spot_finding");
  const std::vector<Params> cases = {
      stack_params("3", "61", "67", "diffraction"),
      stack_params("8", "45", "39", "stress"),
      stack_params("2", "5", "4", "stress"),
      stack_params("3", "50", "60", "stress", {{"kernel_size", "2"}}),
      stack_params("2", "64", "70", "diffraction", {{"kernel_size", "5"}, {"threshold", "3"}, {"min_count", "60"}}),
      stack_params("2", "40", "40", "stress", {{"sigma_b", "0"}, {"sigma_s", "0.5"}})};
  std::size_t signal_pixels = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Params params = problem->resolve("tiny", cases[i]);
    const Arrays inputs = problem->generate(params, 11 + i);
    const auto expected = brute_force(inputs, spot_finding::settings_of(params));
    EXPECT_EQ(signal_of(problem->reference(inputs, params)), expected) << "case " << i;
    signal_pixels += std::size_t(std::count(expected.begin(), expected.end(), 1));
  }
  EXPECT_GT(signal_pixels, 100u) << "the cases should hold signal, not only background";
}

TEST(SpotFindingTest, ABrightSquareIsOneSpotWithItsCentroidAndBox) {
  // Background 1 (valid everywhere), a 2 × 2 square of 100, 200 / 300, 400
  // at rows 10-11, columns 10-11: all four pixels are signal (worked out in
  // README.md), one spot of 4 pixels, 1000 counts, centroid (11.1, 11.2).
  auto problem = make_problem("spot_finding");
  Arrays inputs{{"image", Array(DType::u16, {30, 30})}, {"mask", Array(DType::u8, {30, 30})}};
  auto image = inputs["image"].view<std::uint16_t>();
  auto mask = inputs["mask"].view<std::uint8_t>();
  std::fill(image.begin(), image.end(), 1);
  std::fill(mask.begin(), mask.end(), 1);
  image[10 * 30 + 10] = 100, image[10 * 30 + 11] = 200, image[11 * 30 + 10] = 300, image[11 * 30 + 11] = 400;
  const auto signal = signal_of(problem->reference(inputs, {}));
  EXPECT_EQ(std::count(signal.begin(), signal.end(), 1), 4);
  const Stack stack{1, 30, 30};
  const auto spots = spot_finding::find_spots(image, signal, stack);
  ASSERT_EQ(spots.size(), 1u);
  EXPECT_EQ(
      spots[0],
      (Spot{.frame = 0, .pixels = 4, .intensity = 1000, .x = 11.1, .y = 11.2, .x0 = 10, .x1 = 12, .y0 = 10, .y1 = 12}));
  EXPECT_EQ(spot_finding::spots_csv(spots),
            "frame,pixels,intensity,centroid_x,centroid_y,bbox_x0,bbox_x1,bbox_y0,bbox_y1\n"
            "0,4,1000,11.1,11.199999999999999,10,12,10,12\n");
  // A lone bright pixel is signal but no spot (fewer than 3 pixels).
  image[20 * 30 + 20] = 100;
  const auto more = signal_of(problem->reference(inputs, {}));
  EXPECT_EQ(more[20 * 30 + 20], 1);
  EXPECT_EQ(spot_finding::find_spots(image, more, stack).size(), 1u);
  // Masking one pixel of the square: it adds nothing and is not signal.
  mask[11 * 30 + 11] = 0;
  const auto masked = signal_of(problem->reference(inputs, {}));
  EXPECT_EQ(masked[11 * 30 + 11], 0);
  EXPECT_EQ(spot_finding::find_spots(image, masked, stack).at(0).intensity, 600u);
}

TEST(SpotFindingTest, SpotsOfMoreThan1000PixelsAreLeftOut) {
  const Stack stack{2, 40, 40};
  std::vector<std::uint16_t> image(stack.pixels(), 5);
  std::vector<std::uint8_t> signal(stack.pixels(), 0);
  std::fill(signal.begin(), signal.begin() + 1001, 1);                // frame 0: one component of 1001
  std::fill(signal.begin() + 1600, signal.begin() + 1600 + 1000, 1);  // frame 1: exactly 1000
  const auto spots = spot_finding::find_spots(image, signal, stack);
  ASSERT_EQ(spots.size(), 1u);
  EXPECT_EQ(spots[0].frame, 1u);
  EXPECT_EQ(spots[0].pixels, 1000u);
}

TEST(SpotFindingTest, WorkshopStackLooksLikeAnEigerBurst) {
  auto problem = make_problem("spot_finding");
  const Params params = problem->resolve("workshop", {});
  const Arrays inputs = problem->generate(params, 1);
  ASSERT_EQ(inputs.at("image").describe(), "uint16 array of shape (32, 512, 1028)");
  ASSERT_EQ(inputs.at("mask").describe(), "uint8 array of shape (32, 512, 1028)");
  const auto image = inputs.at("image").view<std::uint16_t>();
  const auto mask = inputs.at("mask").view<std::uint8_t>();
  const auto at = [](std::size_t f, std::size_t y, std::size_t x) { return (f * 512 + y) * 1028 + x; };
  EXPECT_EQ(mask[at(0, 0, 500)], 0) << "module edge";
  EXPECT_EQ(mask[at(5, 100, 256)], 0) << "chip gap";
  EXPECT_EQ(mask[at(7, 256, 463)], 0) << "beam stop";
  EXPECT_EQ(mask[at(7, 256, 1000)], 0) << "beam stop arm";
  EXPECT_TRUE(std::equal(mask.begin(), mask.begin() + 512 * 1028, mask.begin() + 31 * 512 * 1028))
      << "one detector mask";
  const double valid = double(std::count(mask.begin(), mask.end(), 1)) / double(mask.size());
  EXPECT_GT(valid, 0.9);
  EXPECT_LT(valid, 0.99);
  EXPECT_GT(std::count(image.begin(), image.end(), 65535), 100) << "saturated pixels";
  const auto signal = problem->reference(inputs, params);
  const auto spots = spot_finding::find_spots(image, signal.at("signal").view<std::uint8_t>(),
                                              spot_finding::stack_of(inputs.at("image")));
  EXPECT_GT(spots.size(), 32u * 50);
  EXPECT_LT(spots.size(), 32u * 200);
}

TEST(SpotFindingTest, GeneratorIsDeterministic) {
  auto problem = make_problem("spot_finding");
  for (const char* scene : {"diffraction", "stress"}) {
    const Params params = problem->resolve("tiny", stack_params("3", "50", "70", scene));
    EXPECT_EQ(checksum(problem->generate(params, 3).at("image")), checksum(problem->generate(params, 3).at("image")));
    EXPECT_NE(checksum(problem->generate(params, 3).at("image")), checksum(problem->generate(params, 4).at("image")));
  }
}

TEST(SpotFindingTest, RefusesBadParameters) {
  auto problem = make_problem("spot_finding");
  auto resolve = [&](const char* key, const char* value) {
    return [&problem, key, value] {
      problem->resolve("tiny", Params(std::map<std::string, std::string>{{key, value}}));
    };
  };
  expect_usage_error(resolve("kernel_size", "0"),
                     "parameter kernel_size=0 is out of range for spot_finding (accepted: 1 to 15)");
  expect_usage_error(resolve("kernel_size", "16"), "(accepted: 1 to 15)");
  expect_usage_error(resolve("min_count", "1"), "parameter min_count=1 is out of range");
  expect_usage_error(resolve("sigma_b", "-1"), "parameter sigma_b=-1 is out of range");
  expect_usage_error(resolve("sigma_s", "-0.5"), "parameter sigma_s=-0.5 is out of range");
  expect_usage_error(resolve("threshold", "-1"), "parameter threshold=-1 is out of range");
  expect_usage_error(resolve("gain", "2"), "parameter gain=2 is not one of spot_finding's choices (accepted: 1)");
  // min_count beyond the window: the generator and validate() refuse it.
  const Params too_many = problem->resolve("tiny", Params(std::map<std::string, std::string>{{"min_count", "50"}}));
  expect_usage_error(
      [&] { problem->generate(too_many, 1); },
      "parameter min_count=50 is more than the 49 pixels of the 7×7 window (kernel_size=3); accepted: 2 to 49");
  const Arrays small{{"image", Array(DType::u16, {4, 5})}, {"mask", Array(DType::u8, {4, 5})}};
  expect_usage_error(
      [&] {
        problem->validate(small, Params(std::map<std::string, std::string>{{"min_count", "10"}, {"kernel_size", "1"}}));
      },
      "more than the 9 pixels of the 3×3 window");
  EXPECT_NO_THROW(
      problem->validate(small, Params(std::map<std::string, std::string>{{"min_count", "9"}, {"kernel_size", "1"}})));
}

TEST(SpotFindingTest, RefusesInputsOfTheWrongTypeOrShape) {
  auto problem = make_problem("spot_finding");
  auto refused = [&](Array image, Array mask, const std::string& fragment) {
    expect_usage_error([&] { problem->validate({{"image", image}, {"mask", mask}}, {}); }, fragment);
  };
  refused(Array(DType::u16, {4, 5}), Array(DType::u8, {5, 4}),
          "input mask is a uint8 array of shape (5, 4) but the image is a uint16 array of shape (4, 5); the mask must "
          "have the image's shape");
  refused(Array(DType::u16, {2, 4, 5}), Array(DType::u8, {4, 5}), "the mask must have the image's shape");
  refused(Array(DType::f32, {4, 5}), Array(DType::u8, {4, 5}),
          "input image is a float32 array of shape (4, 5); spot_finding takes a uint16 image, H×W or F×H×W");
  refused(Array(DType::i32, {4, 5}), Array(DType::u8, {4, 5}), "takes a uint16 image");
  refused(Array(DType::u16, {20}), Array(DType::u8, {20}), "takes a uint16 image, H×W or F×H×W");
  refused(Array(DType::u16, {2, 2, 4, 5}), Array(DType::u8, {2, 2, 4, 5}), "H×W or F×H×W");
  refused(Array(DType::u16, {4, 5}), Array(DType::u16, {4, 5}),
          "input mask is a uint16 array of shape (4, 5); "
          "spot_finding takes a uint8 mask");
  refused(Array(DType::u16, {0, 5}), Array(DType::u8, {0, 5}), "needs at least one pixel");
  Array mask(DType::u8, {2, 4, 5});
  mask.view<std::uint8_t>()[27] = 2;
  refused(Array(DType::u16, {2, 4, 5}), mask,
          "input mask holds 2 at (frame 1, row 1, column 2); the mask takes 0 (masked) and 1 (valid) only");
  refused(Array(DType::u16, {65536, 1, 1}), Array(DType::u8, {65536, 1, 1}), "accepts at most 65535");
  EXPECT_NO_THROW(problem->validate({{"image", Array(DType::u16, {1, 1})}, {"mask", Array(DType::u8, {1, 1})}}, {}));
}

TEST(SpotFindingTest, WorkIsTheStackReadAndTheSignalWritten) {
  auto problem = make_problem("spot_finding");
  const Work work = problem->work({{"image", Array(DType::u16, {2, 3, 5})}, {"mask", Array(DType::u8, {2, 3, 5})}}, {});
  EXPECT_EQ(work.bytes, 120);
  EXPECT_EQ(work.operations, 30);
  EXPECT_EQ(work.bytes_in, 90);
  EXPECT_EQ(work.bytes_out, 30);
}

// The planted mistake: the naive rung cut into 16 × 16 tiles without a
// halo, each window summing only the pixels of its own tile, as a GPU tile
// that loads no halo would. A test-only rung of the planted track, which
// neither `ladder` nor the rung tests see; the check case named for the
// mistake must fail it.
class PlantedTilesWithoutHalo final : public HostRung {
 public:
  explicit PlantedTilesWithoutHalo(const RungContext& context) : settings_(spot_finding::settings_of(context.params)) {}
  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<std::uint16_t>();
    mask_ = inputs.at("mask").view<std::uint8_t>();
    signal_ = outputs.at("signal").view<std::uint8_t>();
    stack_ = spot_finding::stack_of(inputs.at("image"));
  }
  void compute() override {
    constexpr long kTile = 16;
    const long k = settings_.kernel_size, height = long(stack_.height), width = long(stack_.width);
    for (std::size_t f = 0; f < stack_.frames; ++f) {
      const std::uint16_t* image = image_.data() + f * stack_.frame_pixels();
      const std::uint8_t* mask = mask_.data() + f * stack_.frame_pixels();
      std::uint8_t* signal = signal_.data() + f * stack_.frame_pixels();
      for (long y = 0; y < height; ++y)
        for (long x = 0; x < width; ++x) {
          std::uint32_t m = 0;
          std::uint64_t sum = 0, squares = 0;
          for (long dy = -k; dy <= k; ++dy)
            for (long dx = -k; dx <= k; ++dx) {
              const long ny = y + dy, nx = x + dx;
              if (ny < 0 || ny >= height || nx < 0 || nx >= width || !mask[ny * width + nx]) continue;
              if (ny / kTile != y / kTile || nx / kTile != x / kTile) continue;  // the mistake: no halo
              const std::uint64_t v = image[ny * width + nx];
              m += 1, sum += v, squares += v * v;
            }
          const long p = y * width + x;
          signal[p] = mask[p] && spot_finding::dispersion_test(m, sum, squares, image[p], settings_);
        }
    }
  }

 private:
  spot_finding::Settings settings_;
  std::span<const std::uint16_t> image_;
  std::span<const std::uint8_t> mask_;
  std::span<std::uint8_t> signal_;
  spot_finding::Stack stack_;
};
LADDER_PLANTED_MISTAKE(spot_finding, serial_tiles_without_halo, PlantedTilesWithoutHalo,
                       "the seams between tiles: windows across them need a halo");

}  // namespace
}  // namespace ladder
