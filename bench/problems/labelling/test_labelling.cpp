// labelling: every rung gives scipy.ndimage.label's numbering exactly, for
// 4- and 8-connectivity, on noise of every density, awkward sizes, the
// spiral and the checkerboard; rungs that cannot run here are skipped,
// never passed. The reference, the generator and the input checks do what
// bench/problems/labelling/README.md says.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "bench/problems/labelling/given/naive.hpp"
#include "ladder/error.hpp"
#include "ladder/harness.hpp"
#include "ladder/registry.hpp"
#include "rung_test.hpp"

namespace ladder {
namespace {

Params labelling_params(const std::string& height, const std::string& width, const std::string& image,
                        const std::string& connectivity, const std::string& density = "0.5") {
  return Params(std::map<std::string, std::string>{
      {"height", height}, {"width", width}, {"image", image}, {"density", density}, {"connectivity", connectivity}});
}

std::vector<std::int32_t> labels_of(const Arrays& outputs) {
  auto labels = outputs.at("labels").view<std::int32_t>();
  return {labels.begin(), labels.end()};
}

Array image_from(std::size_t height, std::size_t width, const std::vector<std::uint8_t>& pixels) {
  Array image(DType::u8, {height, width});
  std::copy(pixels.begin(), pixels.end(), image.view<std::uint8_t>().begin());
  return image;
}

using testing::expect_usage_error;
using testing::RungCase;

class LabellingRungTest : public ::testing::TestWithParam<RungCase> {};

TEST_P(LabellingRungTest, MatchesTheReferenceExactlyFor4And8OnEveryShapeAndDensity) {
  // Larger than the check cases: many GPU tiles and chunks, components
  // that cross tile borders many times (percolating noise, the spiral).
  std::vector<Params> extra;
  for (const char* connectivity : {"4", "8"}) {
    extra.push_back(labelling_params("517", "1030", "noise", connectivity, "0.5"));
    extra.push_back(labelling_params("301", "300", "spiral", connectivity));
    extra.push_back(labelling_params("129", "257", "checkerboard", connectivity));
  }
  extra.push_back(labelling_params("700", "701", "noise", "4", "0.62"));
  extra.push_back(labelling_params("700", "701", "noise", "8", "0.45"));
  extra.push_back(labelling_params("4099", "3", "noise", "8", "0.6"));
  testing::expect_rung_matches_reference("labelling", GetParam(), extra);
}

INSTANTIATE_TEST_SUITE_P(Rungs, LabellingRungTest, ::testing::ValuesIn(testing::rung_cases("labelling")),
                         testing::rung_case_name);

TEST(LabellingTest, ReferenceLabelsAHandMadeImageAsScipyDoes) {
  auto problem = make_problem("labelling");
  // scipy.ndimage.label(image) and label(image, np.ones((3, 3))) of:
  const std::vector<std::uint8_t> pixels = {
      1, 1, 0, 0, 1, 0,  //
      0, 0, 1, 0, 1, 0,  //
      1, 0, 1, 0, 0, 1,  //
      1, 0, 0, 1, 0, 1,  //
      0, 1, 0, 0, 0, 0,  //
  };
  const Arrays inputs{{"image", image_from(5, 6, pixels)}};
  const std::vector<std::int32_t> four = {
      1, 1, 0, 0, 2, 0,  //
      0, 0, 3, 0, 2, 0,  //
      4, 0, 3, 0, 0, 5,  //
      4, 0, 0, 6, 0, 5,  //
      0, 7, 0, 0, 0, 0,  //
  };
  const std::vector<std::int32_t> eight = {
      1, 1, 0, 0, 2, 0,  //
      0, 0, 1, 0, 2, 0,  //
      3, 0, 1, 0, 0, 2,  //
      3, 0, 0, 1, 0, 2,  //
      0, 3, 0, 0, 0, 0,  //
  };
  EXPECT_EQ(labels_of(problem->reference(inputs, labelling_params("5", "6", "noise", "4"))), four);
  EXPECT_EQ(labels_of(problem->reference(inputs, labelling_params("5", "6", "noise", "8"))), eight);
  EXPECT_EQ(labels_of(problem->reference(inputs, {})), four) << "connectivity 4 unless asked for 8";
}

// One rung's output on these inputs, for the named tests below.
Arrays run_rung(const std::string& rung, const Arrays& inputs, const Params& params) {
  auto problem = make_problem("labelling");
  return run_once(*find_rung("labelling", rung), inputs, params, RunOptions{}, *problem);
}

TEST(LabellingTest, TheSpiralIsOneComponentThatSnakesThroughTheWholeImage) {
  auto problem = make_problem("labelling");
  for (const char* connectivity : {"4", "8"}) {
    const Params params = problem->resolve("tiny", labelling_params("257", "263", "spiral", connectivity));
    const Arrays inputs = problem->generate(params, 1);
    const auto image = inputs.at("image").view<std::uint8_t>();
    const auto labels = labels_of(problem->reference(inputs, params));
    for (std::size_t i = 0; i < labels.size(); ++i) ASSERT_EQ(labels[i], image[i] ? 1 : 0) << "pixel " << i;
    // About half the image is path: it reaches every part of it.
    EXPECT_GT(std::count(image.begin(), image.end(), 1), 257 * 263 / 2 - 300);
    EXPECT_EQ(labels_of(run_rung("serial", inputs, params)), labels) << connectivity;
    EXPECT_EQ(labels_of(run_rung("naive", inputs, params)), labels) << connectivity;
  }
}

TEST(LabellingTest, CheckerboardIsEveryPixelAloneFor4AndOneComponentFor8) {
  auto problem = make_problem("labelling");
  const Params four = problem->resolve("tiny", labelling_params("33", "65", "checkerboard", "4"));
  const Params eight = problem->resolve("tiny", labelling_params("33", "65", "checkerboard", "8"));
  const Arrays inputs = problem->generate(four, 1);
  const auto image = inputs.at("image").view<std::uint8_t>();
  ASSERT_EQ(image[0], 1);
  ASSERT_EQ(std::count(image.begin(), image.end(), 1), (33 * 65 + 1) / 2);
  // 4: ceil(H·W / 2) components, the most an image can have, numbered in raster order.
  const auto labels4 = labels_of(problem->reference(inputs, four));
  std::int32_t next = 0;
  for (std::size_t i = 0; i < labels4.size(); ++i) ASSERT_EQ(labels4[i], image[i] ? ++next : 0) << "pixel " << i;
  EXPECT_EQ(next, (33 * 65 + 1) / 2);
  // 8: the corners touch, one component.
  const auto labels8 = labels_of(problem->reference(inputs, eight));
  for (std::size_t i = 0; i < labels8.size(); ++i) ASSERT_EQ(labels8[i], image[i] ? 1 : 0) << "pixel " << i;
  EXPECT_EQ(labels_of(run_rung("serial", inputs, four)), labels4);
  EXPECT_EQ(labels_of(run_rung("serial", inputs, eight)), labels8);
}

TEST(LabellingTest, NoiseHasTheAskedDensityAndManyComponents) {
  auto problem = make_problem("labelling");
  const Params params = problem->resolve("tiny", labelling_params("500", "400", "noise", "4", "0.3"));
  const Arrays inputs = problem->generate(params, 3);
  const auto image = inputs.at("image").view<std::uint8_t>();
  EXPECT_NEAR(std::count(image.begin(), image.end(), 1) / 200000.0, 0.3, 0.005);  // sd 0.001
  const auto labels = labels_of(problem->reference(inputs, params));
  // Site percolation at 0.3: about 0.12 components per pixel (4) ... well over 10^4 here.
  EXPECT_GT(*std::max_element(labels.begin(), labels.end()), 10000);
  for (const char* density : {"0", "1"}) {
    const Params edge = problem->resolve("tiny", labelling_params("50", "70", "noise", "4", density));
    const Arrays generated = problem->generate(edge, 3);  // kept alive: pixels is a view into it
    const auto pixels = generated.at("image").view<std::uint8_t>();
    EXPECT_EQ(std::count(pixels.begin(), pixels.end(), 1), density[0] == '1' ? 3500 : 0) << density;
  }
}

TEST(LabellingTest, WorkshopSkyHasAFewHundredComponents) {
  auto problem = make_problem("labelling");
  const Params params = problem->resolve("workshop", {});
  EXPECT_EQ(params.text("image"), "sky");
  EXPECT_EQ(params.text("connectivity"), "4");
  const Arrays inputs = problem->generate(params, 1);
  ASSERT_EQ(inputs.at("image").describe(), "uint8 array of shape (2048, 2048)");
  const auto labels = labels_of(problem->reference(inputs, params));
  const std::int32_t n = *std::max_element(labels.begin(), labels.end());
  EXPECT_GT(n, 100);
  EXPECT_LT(n, 1000);
}

TEST(LabellingTest, GeneratorIsDeterministic) {
  auto problem = make_problem("labelling");
  for (const char* image : {"noise", "sky"}) {
    const Params params = problem->resolve("tiny", labelling_params("300", "200", image, "4"));
    EXPECT_EQ(checksum(problem->generate(params, 3).at("image")), checksum(problem->generate(params, 3).at("image")));
  }
  const Params noise = problem->resolve("tiny", {});
  EXPECT_NE(checksum(problem->generate(noise, 3).at("image")), checksum(problem->generate(noise, 4).at("image")));
}

TEST(LabellingTest, RefusesConnectivityOtherThan4Or8) {
  auto problem = make_problem("labelling");
  for (const char* connectivity : {"6", "0", "four", "4.0"})
    expect_usage_error(
        [&] {
          problem->resolve("tiny", Params(std::map<std::string, std::string>{{"connectivity", connectivity}}));
        },
        std::string("parameter connectivity=") + connectivity + " is not one of labelling's choices (accepted: 4, 8)");
  EXPECT_NO_THROW(problem->resolve("tiny", Params(std::map<std::string, std::string>{{"connectivity", "8"}})));
}

TEST(LabellingTest, RefusesImagesThatAreNotTwoDimensionalIntegerArrays) {
  auto problem = make_problem("labelling");
  auto refused = [&](const Array& image, const std::string& fragment) {
    expect_usage_error([&] { problem->validate({{"image", image}}, {}); }, fragment);
  };
  refused(Array(DType::u8, {3, 4, 5}),
          "input image is a uint8 array of shape (3, 4, 5); labelling takes a 2-D image (H, W)");
  refused(Array(DType::u8, {12}), "input image is a uint8 array of shape (12,); labelling takes a 2-D image");
  refused(Array(DType::f32, {3, 4}), "input image is a float32 array of shape (3, 4); labelling takes a 2-D uint8");
  refused(Array(DType::u8, {0, 4}), "needs at least one pixel");
  EXPECT_NO_THROW(problem->validate({{"image", Array(DType::u8, {1, 1})}}, {}));
  EXPECT_NO_THROW(problem->validate({{"image", Array(DType::i64, {3, 4})}}, {}));
}

TEST(LabellingTest, RefusesImagesWhoseLabelsWouldOverflowInt32) {
  // 65536 × 32768 = 2^31 pixels: one more than int32 labels can index. The
  // rule is checked on the size alone, before any pixel is allocated.
  auto problem = make_problem("labelling");
  const Params params = problem->resolve("tiny", labelling_params("65536", "32768", "noise", "4"));
  expect_usage_error([&] { problem->generate(params, 1); },
                     "image 65536 x 32768 has 2147483648 pixels; labelling accepts at most 2^31 - 1 = 2147483647");
}

TEST(LabellingTest, IntegerImagesBecomeBinaryUint8ForTheRungs) {
  auto problem = make_problem("labelling");
  Array wide(DType::i32, {2, 3});
  const std::int32_t values[] = {0, 7, -1, 0, 0, 256};
  std::copy(std::begin(values), std::end(values), wide.view<std::int32_t>().begin());
  Arrays inputs{{"image", wide}};
  ASSERT_NO_THROW(problem->validate(inputs, {}));
  problem->normalise(inputs);
  ASSERT_EQ(inputs.at("image").describe(), "uint8 array of shape (2, 3)");
  const auto binary = inputs.at("image").view<std::uint8_t>();
  EXPECT_EQ(std::vector<std::uint8_t>(binary.begin(), binary.end()), (std::vector<std::uint8_t>{0, 1, 1, 0, 0, 1}));
  EXPECT_EQ(labels_of(problem->reference({{"image", wide}}, {})), labels_of(problem->reference(inputs, {})));
  EXPECT_EQ(labels_of(problem->reference(inputs, {})),
            (std::vector<std::int32_t>{0, 1, 1, 0, 0, 1}));  // -1 above 256: one component
}

TEST(LabellingTest, WorkIsTheImageReadAndTheLabelsWritten) {
  auto problem = make_problem("labelling");
  Work work = problem->work({{"image", Array(DType::u8, {10, 3})}}, {});
  EXPECT_EQ(work.bytes, 150);
  EXPECT_EQ(work.operations, 30);
  EXPECT_EQ(work.bytes_in, 30);
  EXPECT_EQ(work.bytes_out, 120);
}

// The planted mistake: the naive rung labelling strips of 32 rows each on
// its own, as an OpenMP rung's threads would, and never joining them across
// their seams. A test-only rung of the planted track, which neither
// `ladder` nor the rung tests see; the check case named for the mistake
// must fail it.
class PlantedStripsNotJoined final : public labelling::NaiveLabelling {
 public:
  using NaiveLabelling::NaiveLabelling;

  void compute() override {
    constexpr long kStrip = 32;
    std::fill(labels_.begin(), labels_.end(), 0);
    std::int32_t n = 0;
    for (long first = 0; first < height_; first += kStrip) n = label_rows(first, std::min(first + kStrip, height_), n);
  }
};
LADDER_PLANTED_MISTAKE(labelling, serial_strips_not_joined, PlantedStripsNotJoined,
                       "the seams between strips: components across them, not joined (4-connectivity)");

}  // namespace
}  // namespace ladder
