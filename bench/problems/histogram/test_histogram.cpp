// histogram: every rung gives the reference's counts exactly, on both
// distributions and awkward sizes; rungs that cannot run here are skipped,
// never passed. The generator and the input checks do what bench/problems/histogram/README.md
// says.
#include <gtest/gtest.h>

#include <algorithm>

#include "bench/problems/histogram/given/naive.hpp"
#include "ladder/error.hpp"
#include "ladder/harness.hpp"
#include "ladder/registry.hpp"
#include "rung_test.hpp"

namespace ladder {
namespace {

Params histogram_params(const std::string& n, const std::string& distribution) {
  return Params(std::map<std::string, std::string>{{"n", n}, {"distribution", distribution}});
}

using testing::RungCase;

class HistogramRungTest : public ::testing::TestWithParam<RungCase> {};

TEST_P(HistogramRungTest, MatchesTheReferenceExactlyOnBothDistributionsAndAwkwardSizes) {
  // Larger than one pass of any resident GPU grid, odd: the grid-stride loops go round.
  testing::expect_rung_matches_reference("histogram", GetParam(),
                                         {histogram_params("33554439", "uniform"), histogram_params("33554439", "skewed")});
}

INSTANTIATE_TEST_SUITE_P(Rungs, HistogramRungTest, ::testing::ValuesIn(testing::rung_cases("histogram")),
                         testing::rung_case_name);

TEST(HistogramTest, LadderListsTheGlobalAtomicsStepBeforeCuda) {
  EXPECT_EQ(make_problem("histogram")->rungs(),
            (std::vector<std::string>{"naive", "serial", "openmp", "opencl", "cuda_atomics", "cuda", "openmp_target"}));
}

TEST(HistogramTest, ReferenceCountsAHandMadeInput) {
  auto problem = make_problem("histogram");
  Array values(DType::u8, {2, 4});  // any shape: the values are flattened
  const std::uint8_t data[] = {0, 255, 3, 3, 3, 255, 128, 3};
  std::copy(std::begin(data), std::end(data), values.view<std::uint8_t>().begin());
  Arrays counts = problem->reference({{"values", values}}, {});
  ASSERT_EQ(counts.at("counts").dtype(), DType::u32);
  ASSERT_EQ(counts.at("counts").size(), 256u);
  std::vector<std::uint32_t> expected(256, 0);
  expected[0] = 1, expected[3] = 4, expected[128] = 1, expected[255] = 2;
  auto got = counts.at("counts").view<std::uint32_t>();
  EXPECT_EQ(std::vector<std::uint32_t>(got.begin(), got.end()), expected);
}

TEST(HistogramTest, ReferenceAgreesWithCountingEachValueSeparately) {
  auto problem = make_problem("histogram");
  for (const char* distribution : {"uniform", "skewed"}) {
    Params params = problem->resolve("tiny", histogram_params("10007", distribution));
    Arrays inputs = problem->generate(params, 5);
    auto values = inputs.at("values").view<std::uint8_t>();
    const Arrays reference = problem->reference(inputs, params);  // kept alive: counts is a view into it
    auto counts = reference.at("counts").view<std::uint32_t>();
    for (int v = 0; v < 256; ++v)
      ASSERT_EQ(counts[v], std::count(values.begin(), values.end(), v)) << distribution << ", value " << v;
  }
}

TEST(HistogramTest, SkewedPutsNinetyPercentOnOneValueAndSpreadsTheRest) {
  auto problem = make_problem("histogram");
  const std::size_t n = 1000003;
  Params params = problem->resolve("tiny", histogram_params(std::to_string(n), "skewed"));
  Arrays inputs = problem->generate(params, 7);
  const Arrays reference = problem->reference(inputs, params);  // kept alive: counts is a view into it
  auto counts = reference.at("counts").view<std::uint32_t>();
  const auto top = std::max_element(counts.begin(), counts.end());
  // 90 % plus the common value's share of the uniform 10 %: 0.9004 n, sd 0.0003 n.
  EXPECT_EQ(top - counts.begin(), 42);
  EXPECT_NEAR(static_cast<double>(*top) / n, 0.9 + 0.1 / 256, 0.002);
  for (int v = 0; v < 256; ++v) {
    if (v == 42) continue;
    EXPECT_NEAR(counts[v], 0.1 * n / 256, 0.3 * 0.1 * n / 256) << "value " << v;  // ~390, sd 20
  }
}

TEST(HistogramTest, UniformFillsEveryBinEvenly) {
  auto problem = make_problem("histogram");
  const std::size_t n = 1000003;
  Params params = problem->resolve("tiny", {});
  ASSERT_EQ(params.text("distribution"), "uniform");
  Arrays inputs = problem->generate(params, 7);
  const Arrays reference = problem->reference(inputs, params);  // kept alive: counts is a view into it
  auto counts = reference.at("counts").view<std::uint32_t>();
  for (int v = 0; v < 256; ++v) EXPECT_NEAR(counts[v], double(n) / 256, 0.1 * n / 256) << "value " << v;  // sd 62
}

TEST(HistogramTest, GeneratorIsDeterministic) {
  auto problem = make_problem("histogram");
  Params params = problem->resolve("tiny", histogram_params("4099", "skewed"));
  EXPECT_EQ(checksum(problem->generate(params, 3).at("values")), checksum(problem->generate(params, 3).at("values")));
  EXPECT_NE(checksum(problem->generate(params, 3).at("values")), checksum(problem->generate(params, 4).at("values")));
}

TEST(HistogramTest, RefusesWrongDtypesEmptyInputsAndValuesOutsideTheBins) {
  auto problem = make_problem("histogram");
  auto refused = [&](const Array& values, const std::string& fragment) {
    testing::expect_usage_error([&] { problem->validate({{"values", values}}, {}); }, fragment);
  };
  refused(Array(DType::f32, {3}), "input values is a float32 array of shape (3,); histogram takes uint8");
  refused(Array(DType::u8, {0}), "empty");
  Array too_large(DType::i32, {20});
  too_large.view<std::int32_t>()[17] = 300;
  refused(too_large, "values[17] = 300 does not fit in [0, 255]");
  Array negative(DType::i64, {2, 2});
  negative.view<std::int64_t>()[3] = -1;
  refused(negative, "values[3] = -1 does not fit in [0, 255]");
  EXPECT_NO_THROW(problem->validate({{"values", Array(DType::u8, {3, 5})}}, {}));
}

TEST(HistogramTest, IntegerValuesInRangeBecomeUint8ForTheRungs) {
  auto problem = make_problem("histogram");
  Array wide(DType::u16, {2, 3});
  for (std::size_t i = 0; i < 6; ++i) wide.view<std::uint16_t>()[i] = static_cast<std::uint16_t>(50 * i + 5);
  Arrays inputs{{"values", wide}};
  ASSERT_NO_THROW(problem->validate(inputs, {}));
  problem->normalise(inputs);
  const Array& bytes = inputs.at("values");
  ASSERT_EQ(bytes.describe(), "uint8 array of shape (2, 3)");
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(bytes.view<std::uint8_t>()[i], 50 * i + 5);
  EXPECT_EQ(checksum(problem->reference(inputs, {}).at("counts")), checksum(problem->reference({{"values", wide}}, {}).at("counts")));
}

TEST(HistogramTest, WorkIsOneByteReadAndOneCountPerValue) {
  auto problem = make_problem("histogram");
  Work work = problem->work({{"values", Array(DType::u8, {10})}}, {});
  EXPECT_EQ(work.bytes, 10);
  EXPECT_EQ(work.operations, 10);
  EXPECT_EQ(work.bytes_in, 10);
  EXPECT_EQ(work.bytes_out, 1024);
}

// The planted mistake: the naive rung with its bins off by one at the top,
// 255 bins where there are 256 (counts[v % 255]): the value 255 lands in
// bin 0. A test-only rung of the planted track, which neither `ladder` nor
// the rung tests see; the check case named for the mistake must fail it.
class PlantedLastBinMissed final : public histogram::NaiveHistogram {
 public:
  using NaiveHistogram::NaiveHistogram;

  void compute() override {
    std::fill(counts_.begin(), counts_.end(), 0u);
    // The mistake: counts[v % 255]++, where the naive rung has counts[v]++.
    for (std::size_t i = 0; i < values_.size(); ++i) counts_[values_[i] % (counts_.size() - 1)]++;
  }
};
LADDER_PLANTED_MISTAKE(histogram, serial_last_bin_missed, PlantedLastBinMissed,
                       "the last bin, 255 (bins off by one at the top)");

}  // namespace
}  // namespace ladder
