// convolution: every rung is within 1e-5 relative L2 error of the float64
// reference, on the check cases and on larger awkward ones; rungs that
// cannot run here are skipped, never passed. The reference is the full
// convolution (kernel flipped, zero outside the image) of bench/problems/convolution/README.md,
// checked against a brute force on inputs small enough to check by hand;
// the generator and the input checks do what the exercise says.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "bench/problems/convolution/given/naive.hpp"
#include "ladder/error.hpp"
#include "ladder/harness.hpp"
#include "ladder/random.hpp"
#include "ladder/registry.hpp"
#include "rung_test.hpp"
#include "solutions/convolution/separable_terms.hpp"

namespace ladder {
namespace {

Params convolution_params(const std::string& height, const std::string& width, const std::string& kernel_size,
                          const std::string& image, const std::string& kernel_values = "gaussian") {
  return Params(std::map<std::string, std::string>{{"height", height},
                                                   {"width", width},
                                                   {"kernel_size", kernel_size},
                                                   {"image", image},
                                                   {"kernel_values", kernel_values}});
}

Array matrix(std::size_t rows, std::size_t columns, const std::vector<float>& values) {
  Array array(DType::f32, {rows, columns});
  std::copy(values.begin(), values.end(), array.view<float>().begin());
  return array;
}

// Values in [-1, 1): signed, and an asymmetric kernel, unlike the Gaussian.
Array random_matrix(std::size_t rows, std::size_t columns, std::uint64_t stream) {
  Array array(DType::f32, {rows, columns});
  const CounterRng rng(42, stream);
  auto values = array.view<float>();
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = 2.0f * rng.uniform_float32(i) - 1.0f;
  return array;
}

// The definition, in double, with the kernel flipped (or not: a correlation).
std::vector<double> brute_force(const Array& image, const Array& kernel, bool flip = true) {
  const long h = static_cast<long>(image.shape()[0]), w = static_cast<long>(image.shape()[1]);
  const long k = static_cast<long>(kernel.shape()[0]), l = static_cast<long>(kernel.shape()[1]);
  auto in = image.view<float>();
  auto weights = kernel.view<float>();
  std::vector<double> out((h + k - 1) * (w + l - 1), 0.0);
  for (long y = 0; y < h + k - 1; ++y)
    for (long x = 0; x < w + l - 1; ++x)
      for (long i = 0; i < k; ++i)
        for (long j = 0; j < l; ++j) {
          const long r = flip ? y - i : y - (k - 1) + i, c = flip ? x - j : x - (l - 1) + j;
          if (r >= 0 && r < h && c >= 0 && c < w)
            out[y * (w + l - 1) + x] += double{weights[i * l + j]} * in[r * w + c];
        }
  return out;
}

std::vector<double> reference_values(const Array& image, const Array& kernel) {
  Arrays output = make_problem("convolution")->reference({{"image", image}, {"kernel", kernel}}, {});
  auto values = output.at("output").view<double>();
  return {values.begin(), values.end()};
}

using testing::RungCase;

class ConvolutionRungTest : public ::testing::TestWithParam<RungCase> {};

TEST_P(ConvolutionRungTest, MatchesTheReferenceOnTheCheckCasesAndLargerAwkwardSizes) {
  // Several tiles and blocks in each direction, none of them whole.
  testing::expect_rung_matches_reference(
      "convolution", GetParam(),
      {convolution_params("257", "263", "15", "noise"), convolution_params("257", "263", "31", "noise", "random"),
       convolution_params("263", "257", "31", "deltas")});
}

TEST_P(ConvolutionRungTest, FlipsTheKernelOnHandMadeInputs) {
  auto problem = make_problem("convolution");
  const RungEntry* entry = find_rung("convolution", GetParam().rung);
  if (entry == nullptr) GTEST_SKIP() << GetParam().rung << " is not built in this build";
  RunOptions options;
  options.pinned = GetParam().pinned;
  Availability availability = backend_availability(entry->backend, options);
  if (!availability.available) GTEST_SKIP() << availability.reason;

  // Asymmetric kernels (the generated Gaussian is symmetric, so it cannot
  // tell a convolution from a correlation): the 2×2 ⊛ 2×2 by hand, a single
  // pixel that reproduces the kernel, and random signed values.
  const std::vector<Arrays> cases = {
      {{"image", matrix(2, 2, {1, 2, 3, 4})}, {"kernel", matrix(2, 2, {1, 10, 100, 1000})}},
      {{"image", matrix(1, 1, {1})}, {"kernel", random_matrix(3, 5, 1)}},
      {{"image", random_matrix(13, 17, 2)}, {"kernel", random_matrix(6, 3, 3)}},
      {{"image", random_matrix(3, 70, 4)}, {"kernel", random_matrix(9, 2, 5)}}};
  for (const Arrays& inputs : cases) {
    SCOPED_TRACE("image " + inputs.at("image").describe() + ", kernel " + inputs.at("kernel").describe());
    CheckResult result =
        problem->check(run_once(*entry, inputs, {}, options, *problem), problem->reference(inputs, {}));
    EXPECT_TRUE(result.ok) << result.detail;
  }
}

INSTANTIATE_TEST_SUITE_P(Rungs, ConvolutionRungTest, ::testing::ValuesIn(testing::rung_cases("convolution")),
                         testing::rung_case_name);

// The CUDA rungs end with cuFFT; the directive rung stands apart after them.
TEST(ConvolutionTest, LadderEndsWithTheCuFftRungThenTheDirectiveRung) {
  EXPECT_EQ(make_problem("convolution")->rungs(),
            (std::vector<std::string>{"naive", "serial", "openmp", "opencl", "cuda_tiles", "cuda", "cuda_unrolled",
                                      "cuda_separable", "cuda_fft", "openmp_target"}));
}

// naive took 34.7 s a run at the large size on the H200 machine's Xeon:
// a run under --time-budget 10 must skip it, the workshop run keep it.
TEST(ConvolutionTest, NaiveIsPredictedTooSlowOnlyAtTheLargeSize) {
  auto problem = make_problem("convolution");
  EXPECT_LT(problem->predict("naive", problem->resolve("workshop", {}))->seconds, 10);
  EXPECT_GT(problem->predict("naive", problem->resolve("large", {}))->seconds, 10);
  EXPECT_FALSE(problem->predict("serial", problem->resolve("large", {})).has_value());
}

TEST(ConvolutionTest, ReferenceOfTwoByTwoByTwoByTwoIsTheHandComputedOne) {
  // out[y][x] = sum of kernel[i][j] * image[y - i][x - j]; scipy gives the same.
  EXPECT_EQ(reference_values(matrix(2, 2, {1, 2, 3, 4}), matrix(2, 2, {1, 10, 100, 1000})),
            (std::vector<double>{1, 12, 20, 103, 1234, 2040, 300, 3400, 4000}));
}

TEST(ConvolutionTest, ReferenceOfADeltaImageIsTheKernelShifted) {
  std::vector<float> pixels(5 * 6, 0.0f);
  pixels[2 * 6 + 3] = 1.0f;
  const Array kernel = random_matrix(2, 3, 1);
  const auto out = reference_values(matrix(5, 6, pixels), kernel);  // 6×8
  for (std::size_t y = 0; y < 6; ++y)
    for (std::size_t x = 0; x < 8; ++x) {
      const bool inside = y >= 2 && y < 4 && x >= 3 && x < 6;
      const double want = inside ? kernel.view<float>()[(y - 2) * 3 + (x - 3)] : 0.0;
      EXPECT_EQ(out[y * 8 + x], want) << "(" << y << ", " << x << ")";
    }
}

TEST(ConvolutionTest, ReferenceIsAConvolutionNotACorrelation) {
  const Array image = random_matrix(4, 5, 2), kernel = random_matrix(3, 2, 3);
  const auto out = reference_values(image, kernel);
  const auto convolution = brute_force(image, kernel), correlation = brute_force(image, kernel, false);
  ASSERT_EQ(out.size(), convolution.size());
  double differs = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    EXPECT_NEAR(out[i], convolution[i], 1e-12) << "index " << i;
    differs = std::max(differs, std::abs(convolution[i] - correlation[i]));
  }
  EXPECT_GT(differs, 0.1);  // the test means something: the two differ for this kernel
}

TEST(ConvolutionTest, ReferenceAgreesWithTheBruteForceOnAwkwardShapes) {
  // Non-square, even, larger than the image, a single row, a single column.
  const std::vector<std::array<std::size_t, 4>> shapes = {{7, 5, 3, 4},  {3, 4, 7, 9}, {1, 37, 3, 1},
                                                          {33, 1, 2, 4}, {1, 1, 1, 1}, {6, 6, 6, 6}};
  std::uint64_t stream = 10;
  for (const auto& [h, w, k, l] : shapes) {
    const Array image = random_matrix(h, w, stream++), kernel = random_matrix(k, l, stream++);
    const auto out = reference_values(image, kernel), want = brute_force(image, kernel);
    ASSERT_EQ(out.size(), (h + k - 1) * (w + l - 1));
    for (std::size_t i = 0; i < out.size(); ++i)
      ASSERT_NEAR(out[i], want[i], 1e-12) << h << "×" << w << " ⊛ " << k << "×" << l << ", index " << i;
  }
}

TEST(ConvolutionTest, GeneratedKernelIsTheLessonsUnnormalisedGaussian) {
  auto problem = make_problem("convolution");
  Params workshop = problem->resolve("workshop", {});
  ASSERT_EQ(workshop.integer("kernel_size"), 15);
  const Array kernel = problem->generate(workshop, 1).at("kernel");
  ASSERT_EQ(kernel.describe(), "float32 array of shape (15, 15)");
  auto k = kernel.view<float>();
  EXPECT_EQ(k[7 * 15 + 7], 1.0f);                       // centre: x = y = 0
  EXPECT_EQ(k[0], static_cast<float>(std::exp(-4.0)));  // corner: x = y = -2
  EXPECT_EQ(k[14 * 15 + 14], static_cast<float>(std::exp(-4.0)));
  EXPECT_EQ(k[7 * 15], static_cast<float>(std::exp(-2.0)));  // edge middle: x = -2, y = 0
  for (std::size_t i = 0; i < 15; ++i)
    for (std::size_t j = 0; j < 15; ++j) ASSERT_EQ(k[i * 15 + j], k[j * 15 + i]);

  // Even sizes take numpy.linspace's points: -2, -2/3, 2/3, 2.
  const Array even =
      problem->generate(problem->resolve("tiny", convolution_params("3", "3", "4", "noise")), 1).at("kernel");
  EXPECT_EQ(even.view<float>()[1 * 4 + 2], static_cast<float>(std::exp(-(4.0 / 9 + 4.0 / 9) / 2)));
  EXPECT_EQ(even.view<float>()[0 * 4 + 1], static_cast<float>(std::exp(-(4.0 + 4.0 / 9) / 2)));
}

TEST(ConvolutionTest, KernelWidthMakesANonSquareKernelAndRandomValuesAreAsymmetric) {
  auto problem = make_problem("convolution");
  Params params = problem->resolve("tiny", convolution_params("10", "11", "2", "noise", "random"));
  params.set("kernel_width", "4");
  const Array kernel = problem->generate(params, 3).at("kernel");
  ASSERT_EQ(kernel.describe(), "float32 array of shape (2, 4)");
  auto k = kernel.view<float>();
  EXPECT_NE(k[0], k[7]);  // not symmetric under the flip
  for (float v : k) EXPECT_TRUE(v >= -1.0f && v < 1.0f) << v;
}

TEST(ConvolutionTest, DeltasAreTheLessonsGridAndNoiseIsUniform) {
  auto problem = make_problem("convolution");
  const Array deltas =
      problem->generate(problem->resolve("tiny", convolution_params("40", "25", "3", "deltas")), 1).at("image");
  ASSERT_EQ(deltas.describe(), "float32 array of shape (40, 25)");
  auto pixels = deltas.view<float>();
  for (std::size_t y = 0; y < 40; ++y)
    for (std::size_t x = 0; x < 25; ++x) {
      const bool delta = (y == 8 || y == 24) && x % 16 == 8;  // rows 8, 24 (40 has no 40), columns 8, 24
      EXPECT_EQ(pixels[y * 25 + x], delta ? 1.0f : 0.0f) << "(" << y << ", " << x << ")";
    }

  Params noise = problem->resolve("tiny", convolution_params("300", "301", "3", "noise"));
  const Array a = problem->generate(noise, 3).at("image");
  double sum = 0;
  for (float v : a.view<float>()) {
    ASSERT_TRUE(v >= 0.0f && v < 1.0f) << v;
    sum += v;
  }
  EXPECT_NEAR(sum / a.size(), 0.5, 0.01);
  EXPECT_EQ(checksum(a), checksum(problem->generate(noise, 3).at("image")));
  EXPECT_NE(checksum(a), checksum(problem->generate(noise, 4).at("image")));
}

TEST(ConvolutionTest, SweepingKernelSizeGivesSquareGaussians) {
  auto problem = make_problem("convolution");
  Params params = problem->resolve("workshop", Params(std::map<std::string, std::string>{{"kernel_size", "63"}}));
  EXPECT_FALSE(params.has("kernel_width"));
  EXPECT_FALSE(params.has("kernel_values"));
  params.set("height", "20"), params.set("width", "20");
  const Array kernel = problem->generate(params, 1).at("kernel");
  EXPECT_EQ(kernel.describe(), "float32 array of shape (63, 63)");
  EXPECT_EQ(kernel.view<float>()[31 * 63 + 31], 1.0f);
}

TEST(ConvolutionTest, CheckMeasuresTheRelativeL2ErrorAndWantsZerosForAZeroReference) {
  auto problem = make_problem("convolution");
  Arrays inputs{{"image", random_matrix(9, 8, 1)}, {"kernel", random_matrix(3, 3, 2)}};
  Arrays expected = problem->reference(inputs, {});
  Arrays got = problem->allocate_outputs(inputs, {});
  auto want = expected.at("output").view<double>();
  auto out = got.at("output").view<float>();
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<float>(want[i]);
  CheckResult result = problem->check(got, expected);
  EXPECT_TRUE(result.ok) << result.detail;
  EXPECT_LT(result.figures["relative_l2_error"].get<double>(), 1e-7);

  out[17] += 1.0f;  // far beyond 1e-5 of this output's norm
  result = problem->check(got, expected);
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.detail.find("largest difference at (row 1, column 7)"), std::string::npos) << result.detail;

  out[17] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(problem->check(got, expected).ok);

  Arrays zeros{{"image", Array(DType::f32, {4, 4})}, {"kernel", random_matrix(2, 2, 3)}};
  Arrays zero_reference = problem->reference(zeros, {});
  Arrays zero_output = problem->allocate_outputs(zeros, {});
  EXPECT_TRUE(problem->check(zero_output, zero_reference).ok);
  zero_output.at("output").view<float>()[3] = 1e-30f;
  result = problem->check(zero_output, zero_reference);
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.detail.find("the reference is all zeros"), std::string::npos) << result.detail;

  Arrays wrong_shape{{"output", Array(DType::f32, {2, 2})}};
  EXPECT_FALSE(problem->check(wrong_shape, expected).ok);
}

TEST(ConvolutionTest, RefusesWhatIsNotAFinite2DFloat32ArrayAndAcceptsEvenAndLargeKernels) {
  auto problem = make_problem("convolution");
  auto refused = [&](const Array& image, const Array& kernel, const std::string& fragment) {
    testing::expect_usage_error([&] { problem->validate({{"image", image}, {"kernel", kernel}}, {}); }, fragment);
  };
  const Array image(DType::f32, {8, 9}), kernel(DType::f32, {3, 3});
  refused(Array(DType::f32, {2, 8, 9}), kernel,
          "input image is a float32 array of shape (2, 8, 9); convolution takes a 2-D float32 array");
  refused(image, Array(DType::f32, {9}), "input kernel is a float32 array of shape (9,); convolution takes a 2-D");
  refused(Array(DType::f64, {8, 9}), kernel,
          "input image is a float64 array of shape (8, 9); convolution takes a 2-D float32");
  refused(Array(DType::f32, {0, 9}), kernel, "input image is a float32 array of shape (0, 9), which is empty");
  refused(image, Array(DType::f32, {3, 0}), "input kernel is a float32 array of shape (3, 0), which is empty");
  Array nan_image = image;
  nan_image.view<float>()[2 * 9 + 4] = std::numeric_limits<float>::quiet_NaN();
  refused(nan_image, kernel, "input image holds nan at (row 2, column 4); convolution takes finite values only");
  Array inf_kernel = kernel;
  inf_kernel.view<float>()[5] = -std::numeric_limits<float>::infinity();
  refused(image, inf_kernel, "input kernel holds -inf at (row 1, column 2)");

  EXPECT_NO_THROW(problem->validate({{"image", image}, {"kernel", Array(DType::f32, {4, 2})}}, {}));  // even, as scipy
  EXPECT_NO_THROW(problem->validate({{"image", image}, {"kernel", Array(DType::f32, {20, 31})}}, {}));  // > image
  EXPECT_NO_THROW(problem->validate({{"image", Array(DType::f32, {1, 1})}, {"kernel", Array(DType::f32, {1, 1})}}, {}));
}

TEST(ConvolutionTest, OutputIsTheFullSize) {
  auto problem = make_problem("convolution");
  Arrays outputs =
      problem->allocate_outputs({{"image", Array(DType::f32, {33, 1})}, {"kernel", Array(DType::f32, {2, 4})}}, {});
  EXPECT_EQ(outputs.at("output").describe(), "float32 array of shape (34, 4)");
}

TEST(ConvolutionTest, WorkIsTwoOperationsPerTapPerOutputPixel) {
  auto problem = make_problem("convolution");
  Work work = problem->work({{"image", Array(DType::f32, {10, 20})}, {"kernel", Array(DType::f32, {3, 5})}}, {});
  const double output = 12.0 * 24.0;
  EXPECT_EQ(work.bytes, 4 * (200 + 15 + output));
  EXPECT_EQ(work.operations, 2 * 15 * output);
  EXPECT_EQ(work.bytes_in, 4 * (200 + 15));
  EXPECT_EQ(work.bytes_out, 4 * output);
}

// The planted mistake: the naive rung with x and y swapped in the image's
// index (image[c * H + r] for image[r * W + c]): only a square image hides
// it. The naive loop is handed the image as that index reads it. A
// test-only rung of the planted track, which neither `ladder` nor the rung
// tests see; the check case named for the mistake must fail it.
class PlantedXAndYSwapped final : public convolution::NaiveConvolution {
 public:
  using NaiveConvolution::NaiveConvolution;

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    NaiveConvolution::prepare(inputs, outputs);
    swapped_.resize(static_cast<std::size_t>(height_ * width_));
    for (long r = 0; r < height_; ++r)
      for (long c = 0; c < width_; ++c) swapped_[r * width_ + c] = image_[c * height_ + r];  // the mistake
    image_ = swapped_.data();
  }

 private:
  std::vector<float> swapped_;
};
LADDER_REGISTER_RUNG_IN_TRACK(testing::kPlantedTrack, convolution, serial_x_and_y_swapped, PlantedXAndYSwapped);

// cuda_separable's decomposition, on the host (the rung itself needs a GPU):
// the fewest terms whose sum is the kernel to within 2^-24 of its norm.
double separable_error(const Array& kernel, const convolution::SeparableTerms& terms) {
  const std::size_t k = kernel.shape()[0], l = kernel.shape()[1];
  const auto weights = kernel.view<float>();
  double error = 0, norm = 0;
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < l; ++j) {
      double sum = 0;
      for (int t = 0; t < terms.rank; ++t) sum += double{terms.columns[t * k + i]} * terms.rows[t * l + j];
      error += (sum - weights[i * l + j]) * (sum - weights[i * l + j]);
      norm += double{weights[i * l + j]} * weights[i * l + j];
    }
  return std::sqrt(error / norm);
}

convolution::SeparableTerms terms_of(const Array& kernel) {
  return convolution::separable_terms(kernel.view<float>(), static_cast<int>(kernel.shape()[0]),
                                      static_cast<int>(kernel.shape()[1]));
}

TEST(ConvolutionSeparableTerms, TheGaussianIsOneTermAtEverySize) {
  auto problem = make_problem("convolution");
  for (const char* size : {"1", "4", "7", "15", "31"}) {
    SCOPED_TRACE(std::string("kernel_size ") + size);
    const Array kernel = problem->generate(convolution_params("3", "3", size, "noise"), 1).at("kernel");
    const auto terms = terms_of(kernel);
    EXPECT_EQ(terms.rank, 1);
    EXPECT_LT(separable_error(kernel, terms), 1e-7);
  }
}

TEST(ConvolutionSeparableTerms, ASumOfTwoOuterProductsIsTwoTerms) {
  // 9 × 6, two random outer products added in double, then rounded to float32.
  const Array left = random_matrix(2, 9, 7), right = random_matrix(2, 6, 8);
  Array kernel(DType::f32, {9, 6});
  for (std::size_t i = 0; i < 9; ++i)
    for (std::size_t j = 0; j < 6; ++j)
      kernel.view<float>()[i * 6 + j] =
          static_cast<float>(double{left.view<float>()[i]} * right.view<float>()[j] +
                             double{left.view<float>()[9 + i]} * right.view<float>()[6 + j]);
  const auto terms = terms_of(kernel);
  EXPECT_EQ(terms.rank, 2);
  EXPECT_LT(separable_error(kernel, terms), 1e-7);
}

TEST(ConvolutionSeparableTerms, ARandomKernelTakesEveryTermAndIsRebuilt) {
  const std::vector<std::pair<std::size_t, std::size_t>> shapes{{7, 5}, {5, 7}, {15, 15}, {67, 65}};
  for (const auto& [rows, columns] : shapes) {
    SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(columns));
    const Array kernel = random_matrix(rows, columns, rows * 100 + columns);
    const auto terms = terms_of(kernel);
    EXPECT_EQ(terms.rank, static_cast<int>(std::min(rows, columns)));
    EXPECT_LT(separable_error(kernel, terms), 1e-6);  // the terms are float32
  }
}

TEST(ConvolutionSeparableTerms, AKernelOfZerosHasNoTerms) {
  EXPECT_EQ(terms_of(matrix(3, 4, std::vector<float>(12, 0.0f))).rank, 0);
}

TEST(ConvolutionPlantedMistake, XAndYSwappedFailsTheCaseNamedForIt) {
  testing::expect_planted_mistake_caught("convolution", "serial_x_and_y_swapped",
                                         "x and y swapped (an image taller than wide)");
}

}  // namespace
}  // namespace ladder
