// kappa_sigma: every rung keeps the reference's pixels (within 1e-6 N),
// takes as many iterations and gives its statistics within 1e-6, on every
// kind of image and awkward sizes; rungs that cannot run here are skipped,
// never passed. The reference does the lesson's loop (bench/problems/kappa_sigma/README.md) on
// hand-made inputs and on the edge cases; bad inputs are refused naming
// what is wrong; `ladder solve` writes the mask and the statistics as JSON.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "bench/problems/kappa_sigma/given/naive.hpp"
#include "ladder/error.hpp"
#include "ladder/fits.hpp"
#include "ladder/harness.hpp"
#include "ladder/npy.hpp"
#include "ladder/registry.hpp"
#include "run_ladder.hpp"
#include "rung_test.hpp"

namespace ladder {
namespace {

namespace fs = std::filesystem;

Params clip_params(const std::string& height, const std::string& width, const std::string& image,
                   const std::string& kappa = "3") {
  return Params(
      std::map<std::string, std::string>{{"height", height}, {"width", width}, {"image", image}, {"kappa", kappa}});
}

Array image_of(std::size_t rows, std::size_t columns, const std::vector<float>& values) {
  Array array(DType::f32, {rows, columns});
  std::copy(values.begin(), values.end(), array.view<float>().begin());
  return array;
}

struct Clipped {
  std::vector<std::uint8_t> mask;
  double count, median, mean, std, iterations, lower, upper;
};

Clipped reference_of(const Arrays& inputs, double kappa) {
  Params params(std::map<std::string, std::string>{{"kappa", std::to_string(kappa)}});
  Arrays out = make_problem("kappa_sigma")->reference(inputs, params);
  auto mask = out.at("mask").view<std::uint8_t>();
  auto s = out.at("statistics").view<double>();
  return {{mask.begin(), mask.end()}, s[0], s[1], s[2], s[3], s[4], s[5], s[6]};
}

Clipped generated(const Params& overrides, std::uint64_t seed = 3) {
  auto problem = make_problem("kappa_sigma");
  Params params = problem->resolve("tiny", overrides);
  return reference_of(problem->generate(params, seed), params.number("kappa"));
}

using testing::RungCase;

class KappaSigmaRungTest : public ::testing::TestWithParam<RungCase> {};

TEST_P(KappaSigmaRungTest, KeepsTheReferencesPixelsOnEveryImageAndAwkwardSizes) {
  // About a million pixels: several rounds of any resident GPU grid, none whole.
  testing::expect_rung_matches_reference("kappa_sigma", GetParam(),
                                         {clip_params("1031", "1029", "sky"), clip_params("513", "517", "heavy"),
                                          clip_params("700", "701", "levels", "2.5")});
}

INSTANTIATE_TEST_SUITE_P(Rungs, KappaSigmaRungTest, ::testing::ValuesIn(testing::rung_cases("kappa_sigma")),
                         testing::rung_case_name);

TEST(KappaSigmaTest, ReferenceClipsAHandMadeInputAsTheLessonsLoop) {
  // Pass 1: median 3, mean 22, std sqrt(1522) = 39.01: bounds 3 ± 58.5 drop 100.
  // Pass 2: [1, 2, 3, 4]: median (2 + 3) / 2 = 2.5 (the even-count rule),
  // std sqrt(1.25): bounds 2.5 ± 1.68 keep all four, so the loop ends.
  const Clipped c = reference_of({{"image", image_of(1, 5, {3, 100, 1, 4, 2})}}, 1.5);
  EXPECT_EQ(c.mask, (std::vector<std::uint8_t>{1, 0, 1, 1, 1}));
  EXPECT_EQ(c.count, 4);
  EXPECT_EQ(c.iterations, 2);
  EXPECT_EQ(c.median, 2.5);
  EXPECT_EQ(c.mean, 2.5);
  EXPECT_DOUBLE_EQ(c.std, std::sqrt(1.25));
  EXPECT_DOUBLE_EQ(c.lower, 2.5 - 1.5 * std::sqrt(1.25));
  EXPECT_DOUBLE_EQ(c.upper, 2.5 + 1.5 * std::sqrt(1.25));
}

TEST(KappaSigmaTest, BoundsAreStrictAndAValueOnABoundIsClipped) {
  // [0, 1] × 2: median 0.5, std 0.5 exactly; kappa 1 puts the bounds on 0 and 1.
  const Clipped c = reference_of({{"image", image_of(2, 2, {0, 1, 0, 1})}}, 1.0);
  EXPECT_EQ(c.lower, 0.0);
  EXPECT_EQ(c.upper, 1.0);
  EXPECT_EQ(c.count, 0);
  EXPECT_EQ(c.mask, (std::vector<std::uint8_t>{0, 0, 0, 0}));
}

TEST(KappaSigmaTest, OnePixelHasStdZeroAndKeepsNothing) {
  const Clipped c = reference_of({{"image", image_of(1, 1, {0.25f})}}, 3);
  EXPECT_EQ(c.count, 0);
  EXPECT_EQ(c.iterations, 1);
  EXPECT_TRUE(std::isnan(c.median) && std::isnan(c.mean) && std::isnan(c.std));
  EXPECT_EQ(c.lower, 0.25);  // median ± 3 × 0: empty, as the strict bounds say
  EXPECT_EQ(c.upper, 0.25);
  EXPECT_EQ(c.mask, std::vector<std::uint8_t>{0});
}

TEST(KappaSigmaTest, ConstantImageHasStdExactlyZeroAndKeepsNothing) {
  // 0.1f is no power of two: the std must still come out as exactly 0.
  const Clipped c = generated(clip_params("7", "9", "constant"));
  EXPECT_EQ(c.count, 0);
  EXPECT_EQ(c.iterations, 1);
  EXPECT_EQ(c.lower, double{0.1f});
  EXPECT_EQ(c.upper, double{0.1f});
  EXPECT_TRUE(std::isnan(c.std));
  EXPECT_EQ(std::count(c.mask.begin(), c.mask.end(), 0), 63);
}

TEST(KappaSigmaTest, UniformImageNeedsOneIteration) {
  // Nothing in [0, 1) lies 3 × 0.289 from the median 0.5: the first pass removes nothing.
  const Clipped c = generated(clip_params("50", "40", "uniform"));
  EXPECT_EQ(c.iterations, 1);
  EXPECT_EQ(c.count, 2000);
  EXPECT_NEAR(c.std, 1 / std::sqrt(12.0), 0.01);
}

TEST(KappaSigmaTest, HeavyTailsNeedManyIterations) {
  const Clipped c = generated(clip_params("301", "299", "heavy", "3"));
  EXPECT_GE(c.iterations, 10);
  EXPECT_GT(c.count, 0.5 * 301 * 299);  // the Cauchy core survives
  EXPECT_LT(std::abs(c.median), 0.02);
}

TEST(KappaSigmaTest, ClippedSkyStatisticsAreTheNoise) {
  // The sources are clipped away; what is left is the noise (σ 0.0133), a
  // little narrower for its clipped tails.
  const Clipped c = generated(clip_params("512", "512", "sky"));
  EXPECT_NEAR(c.std, 0.0133, 0.0133 * 0.03);
  EXPECT_LT(std::abs(c.median), 0.0133 * 0.02);
  EXPECT_GT(c.count, 0.98 * 512 * 512);
  EXPECT_GE(c.iterations, 3);
}

TEST(KappaSigmaTest, KappaBelowOneEmptiesFewValues) {
  // Two values: std = half their distance, so kappa 0.5 keeps neither.
  const Clipped c = reference_of({{"image", image_of(1, 2, {-1, 3})}}, 0.5);
  EXPECT_EQ(c.count, 0);
  EXPECT_EQ(c.lower, 0);
  EXPECT_EQ(c.upper, 2);
}

TEST(KappaSigmaTest, GeneratorIsDeterministicAndItsImagesAreWhatTheySay) {
  auto problem = make_problem("kappa_sigma");
  for (const char* kind : {"sky", "noise", "heavy", "uniform", "levels", "constant", "peaks"}) {
    Params params = problem->resolve("tiny", clip_params("30", "31", kind));
    const Array a = problem->generate(params, 5).at("image");
    ASSERT_EQ(a.describe(), "float32 array of shape (30, 31)") << kind;
    EXPECT_EQ(checksum(a), checksum(problem->generate(params, 5).at("image"))) << kind;
    for (float v : a.view<float>()) ASSERT_TRUE(std::isfinite(v)) << kind;
    if (std::string(kind) == "levels") {
      for (float v : a.view<float>()) ASSERT_EQ(v, std::floor(v));
    }
    if (std::string(kind) == "uniform") {
      for (float v : a.view<float>()) ASSERT_TRUE(v >= 0 && v <= 1);
    }
  }
  Params sky = problem->resolve("workshop", {});
  EXPECT_EQ(sky.text("image"), "sky");
  EXPECT_EQ(sky.integer("height"), 2048);
  EXPECT_EQ(sky.number("kappa"), 3);
}

void expect_refused(const Array& image, const std::string& fragment, const std::string& kappa = "3") {
  auto problem = make_problem("kappa_sigma");
  try {
    problem->validate({{"image", image}}, Params(std::map<std::string, std::string>{{"kappa", kappa}}));
    ADD_FAILURE() << "accepted " << image.describe() << " with kappa " << kappa;
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
  }
}

TEST(KappaSigmaTest, RefusesNonFinitePixelsSayingHowManyAndWhereTheFirstIs) {
  Array image(DType::f32, {4, 6});
  image.view<float>()[2 * 6 + 4] = std::numeric_limits<float>::quiet_NaN();
  image.view<float>()[3 * 6 + 1] = -std::numeric_limits<float>::infinity();
  image.view<float>()[3 * 6 + 5] = std::numeric_limits<float>::infinity();
  expect_refused(image,
                 "input image holds 3 pixels that are not finite float32 values; the first is nan at (row 2, "
                 "column 4)");
  Array one(DType::f32, {1, 3});
  one.view<float>()[2] = std::numeric_limits<float>::infinity();
  expect_refused(one, "holds 1 pixel that are not finite float32 values; the first is inf at (row 0, column 2)");
  Array wide(DType::f64, {2, 2});
  wide.view<double>()[1] = 1e300;  // finite, but not as float32
  expect_refused(wide, "the first is 1.0000000000000001e+300 at (row 0, column 1)");
}

TEST(KappaSigmaTest, RefusesKappaThatIsNotPositive) {
  expect_refused(Array(DType::f32, {2, 2}), "parameter kappa=0 must be > 0", "0");
  expect_refused(Array(DType::f32, {2, 2}), "parameter kappa=-1 must be > 0", "-1");
  auto problem = make_problem("kappa_sigma");
  EXPECT_THROW(problem->resolve("tiny", Params(std::map<std::string, std::string>{{"kappa", "0"}})), UsageError);
  EXPECT_NO_THROW(problem->resolve("tiny", Params(std::map<std::string, std::string>{{"kappa", "0.001"}})));
}

TEST(KappaSigmaTest, RefusesEmptyImagesAndWhatIsNotA2DFloatArray) {
  expect_refused(Array(DType::f32, {0, 5}), "input image is a float32 array of shape (0, 5), which is empty");
  expect_refused(Array(DType::f32, {5, 0}), "which is empty");
  expect_refused(Array(DType::f32, {12}), "input image is a float32 array of shape (12,); kappa_sigma takes a 2-D");
  expect_refused(Array(DType::f32, {2, 3, 4}), "kappa_sigma takes a 2-D float32 array");
  expect_refused(Array(DType::i32, {3, 3}), "input image is a int32 array of shape (3, 3)");
}

TEST(KappaSigmaTest, Float64ImagesAreRoundedToFloat32) {
  auto problem = make_problem("kappa_sigma");
  Array wide(DType::f64, {1, 3});
  wide.view<double>()[0] = 0.1, wide.view<double>()[1] = -2.5, wide.view<double>()[2] = 1e-3;
  Arrays inputs{{"image", wide}};
  ASSERT_NO_THROW(problem->validate(inputs, {}));
  problem->normalise(inputs);
  ASSERT_EQ(inputs.at("image").describe(), "float32 array of shape (1, 3)");
  EXPECT_EQ(inputs.at("image").view<float>()[0], 0.1f);
  EXPECT_EQ(inputs.at("image").view<float>()[2], 1e-3f);
}

TEST(KappaSigmaTest, CheckAllowsOnePixelInAMillionAndNamesEveryFailingStatistic) {
  auto problem = make_problem("kappa_sigma");
  Params params = problem->resolve("tiny", clip_params("100", "100", "noise"));
  Arrays inputs = problem->generate(params, 1);
  const Arrays expected = problem->reference(inputs, params);
  Arrays got = expected;
  EXPECT_TRUE(problem->check(got, expected).ok);

  got.at("mask").view<std::uint8_t>()[5 * 100 + 7] ^= 1;  // ceil(1e-6 × 10^4) = 1 allowed
  EXPECT_TRUE(problem->check(got, expected).ok);
  got.at("mask").view<std::uint8_t>()[9 * 100 + 2] ^= 1;
  CheckResult result = problem->check(got, expected);
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.detail.find("mask (row 5, column 7)"), std::string::npos) << result.detail;
  EXPECT_NE(result.detail.find("2 of 10000 pixels differ, 1 allowed"), std::string::npos) << result.detail;

  got = expected;
  got.at("statistics").view<double>()[3] *= 1 + 1e-7;  // std within 1e-6
  EXPECT_TRUE(problem->check(got, expected).ok);
  got.at("statistics").view<double>()[3] *= 1 + 1e-5;
  result = problem->check(got, expected);
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.detail.find("statistics std: expected"), std::string::npos) << result.detail;

  got = expected;
  got.at("statistics").view<double>()[4] += 1;
  result = problem->check(got, expected);
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.detail.find("statistics iterations"), std::string::npos) << result.detail;

  // Two wrong: both named, in the output's order.
  got.at("statistics").view<double>()[5] -= 1;
  result = problem->check(got, expected);
  EXPECT_NE(result.detail.find("statistics iterations: expected"), std::string::npos) << result.detail;
  EXPECT_NE(result.detail.find("; lower: expected"), std::string::npos) << result.detail;

  got = expected;  // the median near zero: 1e-8 absolute is enough
  got.at("statistics").view<double>()[1] += 5e-9;
  EXPECT_TRUE(problem->check(got, expected).ok);

  got = expected;
  got.at("statistics").view<double>()[2] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(problem->check(got, expected).ok);
}

TEST(KappaSigmaTest, CheckTakesNaNForNaNWhenNothingIsKept) {
  auto problem = make_problem("kappa_sigma");
  Arrays inputs{{"image", image_of(1, 1, {2})}};
  const Arrays expected = problem->reference(inputs, {});
  EXPECT_TRUE(problem->check(expected, expected).ok);
  Arrays got = expected;
  got.at("statistics").view<double>()[1] = 2;
  EXPECT_FALSE(problem->check(got, expected).ok);
}

TEST(KappaSigmaTest, CheckCasesRefuseAMaskFromTheLastBoundsInsteadOfTheTightest) {
  // A common wrong rung (issue 21): it clips right, then writes the mask over
  // every pixel from the last pass's bounds (statistics 5 and 6). On the
  // peaks cases those are wider above than the first pass's and re-admit the
  // group at 2 it clipped; no other check case told the two masks apart.
  auto problem = make_problem("kappa_sigma");
  const std::vector<CheckCase> cases = problem->check_cases();
  int refused = 0, peaks = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Params params = problem->resolve("tiny", cases[i].params);
    SCOPED_TRACE(params.text("height") + "x" + params.text("width") + " " + params.text("image"));
    const Arrays inputs = problem->generate(params, i + 1);  // the seeds `ladder check` uses
    const Arrays expected = problem->reference(inputs, params);
    ASSERT_TRUE(problem->check(expected, expected).ok);

    Arrays last_bounds = expected;
    const auto image = inputs.at("image").view<float>();
    const auto stats = expected.at("statistics").view<double>();
    auto mask = last_bounds.at("mask").view<std::uint8_t>();
    for (std::size_t j = 0; j < image.size(); ++j) mask[j] = image[j] > stats[5] && image[j] < stats[6];
    const CheckResult result = problem->check(last_bounds, expected);
    refused += result.ok ? 0 : 1;
    if (params.text("image") != "peaks") continue;
    ++peaks;
    // The pixels that differ are exactly the group at 2, 1 % of the image.
    const auto group = std::count_if(image.begin(), image.end(), [](float x) { return x > 1.5f; });
    EXPECT_EQ(group, static_cast<long>(image.size() / 100));
    EXPECT_FALSE(result.ok);
    EXPECT_EQ(result.figures.at("mask_mismatches").get<long>(), group) << result.detail;
  }
  EXPECT_GE(peaks, 1) << "no peaks case in check_cases()";
  EXPECT_GE(refused, 1) << "no check case refuses a mask made from the last pass's bounds";
}

TEST(KappaSigmaTest, WorkIsOneReadOfTheImageAndOneWriteOfTheMask) {
  Work work = make_problem("kappa_sigma")->work({{"image", Array(DType::f32, {10, 20})}}, {});
  EXPECT_EQ(work.bytes, 5 * 200);
  EXPECT_EQ(work.bytes_in, 4 * 200);
  EXPECT_EQ(work.bytes_out, 200 + 56);
}

TEST(KappaSigmaTest, NaiveIsPredictedTooSlowOnlyAtTheLargeSize) {
  auto problem = make_problem("kappa_sigma");
  EXPECT_FALSE(problem->predict("naive", problem->resolve("tiny", {})).has_value());
  const auto workshop = problem->predict("naive", problem->resolve("workshop", {}));
  ASSERT_TRUE(workshop.has_value());
  EXPECT_LT(workshop->seconds, 10);
  EXPECT_GT(problem->predict("naive", problem->resolve("large", {}))->seconds, 60);
  EXPECT_FALSE(problem->predict("serial", problem->resolve("large", {})).has_value());
}

// `ladder solve`, as a user runs it.
class KappaSigmaSolveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = ladder::testing::test_folder("kappa_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(directory_);
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }

  std::string path(const std::string& name) const { return (directory_ / name).string(); }

  std::pair<int, std::string> ladder(const std::string& arguments) const {
    auto [exit_code, output] = testing::run_ladder(directory_, arguments);
    return {exit_code, output};
  }

  // A FITS file by hand (BITPIX -32, big-endian), so the test needs no astropy.
  void write_fits(const std::string& name, const Array& image, int extra_axes = 0) const {
    std::string header;
    auto card = [&](const std::string& text) { header += text + std::string(80 - text.size(), ' '); };
    auto value = [&](const std::string& key, const std::string& v) {
      std::string k = key + std::string(8 - key.size(), ' ');
      card(k + "= " + std::string(20 - v.size(), ' ') + v);
    };
    value("SIMPLE", "T");
    value("BITPIX", "-32");
    value("NAXIS", std::to_string(2 + extra_axes));
    value("NAXIS1", std::to_string(image.shape()[1]));
    value("NAXIS2", std::to_string(image.shape()[0]));
    for (int k = 0; k < extra_axes; ++k) value("NAXIS" + std::to_string(3 + k), "1");
    card("END");
    header.resize((header.size() + 2879) / 2880 * 2880, ' ');
    std::string data;
    for (float v : image.view<float>()) {
      const auto bits = std::bit_cast<std::uint32_t>(v);
      for (int shift = 24; shift >= 0; shift -= 8) data.push_back(static_cast<char>(bits >> shift));  // big-endian
    }
    data.resize((data.size() + 2879) / 2880 * 2880, '\0');
    std::ofstream(path(name), std::ios::binary) << header << data;
  }

  fs::path directory_;
};

TEST_F(KappaSigmaSolveTest, WritesTheMaskAndTheStatisticsAsJsonBesideIt) {
  auto problem = make_problem("kappa_sigma");
  Params params = problem->resolve("tiny", clip_params("40", "50", "sky"));
  const Array image = problem->generate(params, 9).at("image");
  write_npy(path("sky.npy"), image);
  auto [code, output] = ladder(
      "solve kappa_sigma --variant serial --input image=sky.npy --param kappa=2.5 --output "
      "mask.npy");
  ASSERT_EQ(code, 0) << output;
  const Clipped want = reference_of({{"image", image}}, 2.5);
  const Array mask = read_npy(path("mask.npy"));
  ASSERT_EQ(mask.describe(), "uint8 array of shape (40, 50)");
  EXPECT_EQ(std::vector<std::uint8_t>(mask.view<std::uint8_t>().begin(), mask.view<std::uint8_t>().end()), want.mask);
  std::ifstream json_file(path("mask.npy.json"));
  ASSERT_TRUE(json_file) << "no mask.npy.json";
  const auto json = nlohmann::json::parse(json_file);
  EXPECT_EQ(json.at("count").get<double>(), want.count);
  EXPECT_EQ(json.at("iterations").get<double>(), want.iterations);
  EXPECT_NEAR(json.at("median").get<double>(), want.median, 1e-12);
  EXPECT_NEAR(json.at("mean").get<double>(), want.mean, 1e-12);
  EXPECT_NEAR(json.at("std").get<double>(), want.std, 1e-12);
  EXPECT_NEAR(json.at("lower").get<double>(), want.lower, 1e-12);
  EXPECT_NEAR(json.at("upper").get<double>(), want.upper, 1e-12);
  EXPECT_EQ(json.at("kappa").get<double>(), 2.5);

  // Without --param kappa, the lesson's 3.
  std::tie(code, output) = ladder("solve kappa_sigma --variant naive --input image=sky.npy --output default.npy");
  ASSERT_EQ(code, 0) << output;
  std::ifstream default_json(path("default.npy.json"));
  EXPECT_EQ(nlohmann::json::parse(default_json).at("kappa").get<double>(), 3);
}

TEST_F(KappaSigmaSolveTest, EmptyResultGivesNullStatistics) {
  write_npy(path("one.npy"), image_of(1, 1, {7}));
  auto [code, output] = ladder("solve kappa_sigma --variant serial --input image=one.npy --output m.npy");
  ASSERT_EQ(code, 0) << output;
  std::ifstream json_file(path("m.npy.json"));
  const auto json = nlohmann::json::parse(json_file);
  EXPECT_EQ(json.at("count").get<int>(), 0);
  EXPECT_TRUE(json.at("median").is_null());
  EXPECT_TRUE(json.at("std").is_null());
  EXPECT_EQ(json.at("lower").get<double>(), 7);
}

TEST_F(KappaSigmaSolveTest, BadInputWritesNeitherFile) {
  Array image(DType::f32, {3, 3});
  image.view<float>()[4] = std::numeric_limits<float>::quiet_NaN();
  write_npy(path("nan.npy"), image);
  auto [code, output] = ladder("solve kappa_sigma --variant serial --input image=nan.npy --output m.npy");
  EXPECT_EQ(code, 2) << output;
  EXPECT_NE(output.find("1 pixel that are not finite float32 values; the first is nan at (row 1, column 1)"),
            std::string::npos)
      << output;
  EXPECT_FALSE(fs::exists(path("m.npy")));
  EXPECT_FALSE(fs::exists(path("m.npy.json")));

  write_npy(path("ok.npy"), image_of(1, 2, {1, 2}));
  std::tie(code, output) =
      ladder("solve kappa_sigma --variant serial --input image=ok.npy --param kappa=0 --output m.npy");
  EXPECT_EQ(code, 2) << output;
  EXPECT_FALSE(fs::exists(path("m.npy")));

  // The JSON cannot be written (a directory is in its way): the mask is not left behind.
  fs::create_directories(path("m.npy.json"));
  std::tie(code, output) = ladder("solve kappa_sigma --variant serial --input image=ok.npy --output m.npy");
  EXPECT_NE(code, 0) << output;
  EXPECT_FALSE(fs::exists(path("m.npy")));
}

TEST_F(KappaSigmaSolveTest, ReadsFitsImagesWhereBuiltWithCfitsio) {
  auto problem = make_problem("kappa_sigma");
  Params params = problem->resolve("tiny", clip_params("23", "31", "sky"));
  const Array image = problem->generate(params, 4).at("image");
  write_fits("sky.fits", image, 2);  // a radio image's FREQ and STOKES axes of length 1
  auto [code, output] = ladder("solve kappa_sigma --variant serial --input image=sky.fits --output mask.npy");
  if (!fits_supported()) {
    EXPECT_EQ(code, 2) << output;
    EXPECT_NE(output.find("libcfitsio-dev"), std::string::npos) << output;
    EXPECT_FALSE(fs::exists(path("mask.npy")));
    GTEST_SKIP() << "built without cfitsio: the FITS input is refused naming libcfitsio-dev, as it should be";
  }
  ASSERT_EQ(code, 0) << output;
  const Clipped want = reference_of({{"image", image}}, 3);
  const Array mask = read_npy(path("mask.npy"));
  ASSERT_EQ(mask.describe(), "uint8 array of shape (23, 31)");
  EXPECT_EQ(std::vector<std::uint8_t>(mask.view<std::uint8_t>().begin(), mask.view<std::uint8_t>().end()), want.mask);

  std::tie(code, output) = ladder("solve kappa_sigma --variant serial --input image=nothing.fits --output m.npy");
  EXPECT_EQ(code, 2) << output;
  EXPECT_NE(output.find("nothing.fits: cannot open it as a FITS image"), std::string::npos) << output;
}

TEST(KappaSigmaFitsTest, RecognisesFitsNames) {
  EXPECT_TRUE(is_fits_path("sky.fits"));
  EXPECT_TRUE(is_fits_path("dir/SKY.FIT"));
  EXPECT_TRUE(is_fits_path("sky.fts.gz"));
  EXPECT_TRUE(is_fits_path("sky.fits[1]"));
  EXPECT_FALSE(is_fits_path("sky.npy"));
  EXPECT_FALSE(is_fits_path("fits"));
}

// The planted mistake: the naive rung with the mean as the centre of the
// bounds where the specification has the median. A test-only rung of the
// planted track, which neither `ladder` nor the rung tests see; the check
// case named for the mistake must fail it.
class PlantedMeanAsCentre final : public kappa_sigma::NaiveKappaSigma {
 public:
  using NaiveKappaSigma::NaiveKappaSigma;

 protected:
  double bounds_centre(const ClipStatistics& stats) const override { return stats.mean; }
};
LADDER_PLANTED_MISTAKE(kappa_sigma, serial_mean_as_centre, PlantedMeanAsCentre,
                       "the mean as centre, not the median (heavy tails)");

}  // namespace
}  // namespace ladder
