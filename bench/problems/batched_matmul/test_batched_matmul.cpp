// batched_matmul: every rung within the check's bound of the float64
// product on awkward batches and shapes; the reference against an
// independent sum; the check fails a product with one term missing; bad
// inputs are refused. Rungs that cannot run here are skipped, never passed.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "bench/problems/batched_matmul/given/naive.hpp"
#include "ladder/error.hpp"
#include "ladder/harness.hpp"
#include "ladder/registry.hpp"
#include "rung_test.hpp"

namespace ladder {
namespace {

using testing::RungCase;

Params shape(const std::string& batch, const std::string& m, const std::string& n, const std::string& p) {
  return Params(std::map<std::string, std::string>{{"batch", batch}, {"m", m}, {"n", n}, {"p", p}});
}

// A generated case at the tiny size with this shape: its inputs and their reference.
struct GeneratedCase {
  std::unique_ptr<Problem> problem;
  Params params;
  Arrays inputs, expected;
};
GeneratedCase generated_case(const Params& dimensions, std::uint64_t seed) {
  GeneratedCase made{make_problem("batched_matmul"), {}, {}, {}};
  made.params = made.problem->resolve("tiny", dimensions);
  made.inputs = made.problem->generate(made.params, seed);
  made.expected = made.problem->reference(made.inputs, made.params);
  return made;
}

class BatchedMatmulRungTest : public ::testing::TestWithParam<RungCase> {};

TEST_P(BatchedMatmulRungTest, MatchesTheReferenceOnAwkwardBatchesAndShapes) {
  // Beyond the check cases: either side of the GPU rungs' switches between
  // their kernels (m p = 63, 64; 1023, 1089 with sides that are no
  // multiple of the 4 × 4 register tile), a batch over 16 that is no
  // multiple of 16 (the host rungs' groups), tall and wide pairs.
  testing::expect_rung_matches_reference("batched_matmul", GetParam(),
                                         {shape("37", "7", "9", "9"), shape("29", "8", "3", "8"),
                                          shape("100003", "2", "4", "5"), shape("3", "64", "17", "1"),
                                          shape("5", "1", "64", "64"), shape("19", "8", "8", "8"),
                                          shape("7", "33", "9", "31"), shape("5", "33", "13", "33"),
                                          shape("3", "61", "5", "63")});
}

INSTANTIATE_TEST_SUITE_P(Rungs, BatchedMatmulRungTest, ::testing::ValuesIn(testing::rung_cases("batched_matmul")),
                         testing::rung_case_name);

TEST(BatchedMatmulTest, ReferenceIsTheProductSummedInLongDouble) {
  const GeneratedCase made = generated_case(shape("13", "3", "11", "7"), 5);
  auto a = made.inputs.at("a").view<float>();
  auto b = made.inputs.at("b").view<float>();
  auto c = made.expected.at("c").view<float>();
  auto scale = made.expected.at("scale").view<double>();
  ASSERT_EQ(made.expected.at("c").shape(), (std::vector<std::size_t>{13, 3, 7}));
  for (std::size_t q = 0; q < 13; ++q)
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 7; ++j) {
        long double sum = 0, magnitude = 0;
        for (std::size_t k = 0; k < 11; ++k) {
          const long double product = (long double)a[(q * 3 + i) * 11 + k] * b[(q * 11 + k) * 7 + j];
          sum += product, magnitude += std::fabs(product);
        }
        const std::size_t e = (q * 3 + i) * 7 + j;
        EXPECT_EQ(c[e], static_cast<float>(sum)) << "c[" << q << ", " << i << ", " << j << "]";
        EXPECT_NEAR(scale[e], static_cast<double>(magnitude), 1e-12 * static_cast<double>(magnitude));
      }
  for (float value : a) {
    ASSERT_GE(value, -1.0f);
    ASSERT_LT(value, 1.0f);
  }
}

TEST(BatchedMatmulTest, CheckFailsAProductWithOneTermMissingAndPassesAFloat32Sum) {
  const GeneratedCase made = generated_case(shape("50", "4", "64", "3"), 9);
  const Problem& problem = *made.problem;
  const Arrays& expected = made.expected;
  auto a = made.inputs.at("a").view<float>();
  auto b = made.inputs.at("b").view<float>();
  // A float32 sum in the slides' order passes: the bound holds for n = 64.
  Arrays got = problem.allocate_outputs(made.inputs, made.params);
  auto c = got["c"].view<float>();
  for (std::size_t q = 0; q < 50; ++q)
    for (std::size_t i = 0; i < 4; ++i)
      for (std::size_t j = 0; j < 3; ++j) {
        float sum = 0;
        for (std::size_t k = 0; k < 64; ++k) sum += a[(q * 4 + i) * 64 + k] * b[(q * 64 + k) * 3 + j];
        c[(q * 4 + i) * 3 + j] = sum;
      }
  EXPECT_TRUE(problem.check(got, expected).ok) << problem.check(got, expected).detail;
  // The last term of one element left out: off by about a whole term.
  const std::size_t q = 31, i = 2, j = 1;
  c[(q * 4 + i) * 3 + j] -= a[(q * 4 + i) * 64 + 63] * b[(q * 64 + 63) * 3 + j];
  const CheckResult result = problem.check(got, expected);
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.detail.find("c[31, 2, 1]"), std::string::npos) << result.detail;
  EXPECT_EQ(result.figures.at("elements_outside"), 1);
  // NaN never passes.
  c[(q * 4 + i) * 3 + j] = std::nanf("");
  EXPECT_FALSE(problem.check(got, expected).ok);
}

TEST(BatchedMatmulTest, RefusesWrongDtypesShapesAndSizes) {
  auto problem = make_problem("batched_matmul");
  auto refused = [&](Array a, Array b, const std::string& fragment) {
    testing::expect_usage_error([&] { problem->validate({{"a", a}, {"b", b}}, {}); }, fragment);
  };
  refused(Array(DType::f64, {2, 3, 4}), Array(DType::f32, {2, 4, 5}), "batched_matmul takes float32");
  refused(Array(DType::f32, {3, 4}), Array(DType::f32, {4, 5}), "takes 3-D arrays");
  refused(Array(DType::f32, {2, 3, 4}), Array(DType::f32, {2, 5, 5}), "inner dimensions differ");
  refused(Array(DType::f32, {2, 3, 4}), Array(DType::f32, {3, 4, 5}), "different batches");
  refused(Array(DType::f32, {0, 3, 4}), Array(DType::f32, {0, 4, 5}), "empty");
  refused(Array(DType::f32, {1, 65, 4}), Array(DType::f32, {1, 4, 5}), "at most 64 × 64");
  EXPECT_NO_THROW(problem->validate({{"a", Array(DType::f32, {1, 1, 1})}, {"b", Array(DType::f32, {1, 1, 1})}}, {}));
}

TEST(BatchedMatmulTest, WorkCountsEachInputOnceAndTwoOperationsPerTerm) {
  auto problem = make_problem("batched_matmul");
  const Work work = problem->work({{"a", Array(DType::f32, {10, 2, 4})}, {"b", Array(DType::f32, {10, 4, 5})}}, {});
  EXPECT_EQ(work.bytes_in, 4.0 * 10 * (8 + 20));
  EXPECT_EQ(work.bytes_out, 4.0 * 10 * 10);
  EXPECT_EQ(work.bytes, work.bytes_in + work.bytes_out);
  EXPECT_EQ(work.operations, 2.0 * 10 * 2 * 4 * 5);
}

// The planted mistake: the naive rung with each row of c computed four
// columns at a time, as a 4-wide vector would, and no loop for the columns
// left over when p is no multiple of 4. A test-only rung of the planted
// track, which neither `ladder` nor the rung tests see; the check case named
// for the mistake must fail it.
class PlantedNoPartialVector final : public batched_matmul::NaiveBatchedMatmul {
 public:
  using NaiveBatchedMatmul::NaiveBatchedMatmul;

 protected:
  void matmul(const float* a, const float* b, float* c) const override {
    for (std::size_t i = 0; i < m_; ++i)
      for (std::size_t j = 0; j + 4 <= p_; j += 4)  // the mistake: the last p % 4 columns are left out
        for (std::size_t lane = 0; lane < 4; ++lane) {
          float sum = 0;
          for (std::size_t k = 0; k < n_; ++k) sum += a[i * n_ + k] * b[k * p_ + j + lane];
          c[i * p_ + j + lane] = sum;
        }
  }
};
LADDER_PLANTED_MISTAKE(batched_matmul, serial_no_partial_vector, PlantedNoPartialVector,
                       "p no multiple of a 4-wide vector: a partial last vector");

}  // namespace
}  // namespace ladder
