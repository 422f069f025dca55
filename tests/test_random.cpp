// The counter-based generator: a pure function of (seed, stream, index),
// the same on every machine, thread count and backend.
#include <gtest/gtest.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "ladder/random.hpp"
#include "ladder/registry.hpp"

namespace ladder {
namespace {

TEST(RandomTest, SplitMix64MatchesItsPublishedFirstOutput) {
  // The first output of SplitMix64 seeded with 0 (Vigna's reference code).
  EXPECT_EQ(splitmix64(0), 0xE220A8397B1DCDAFull);
}

TEST(RandomTest, ValueDependsOnlyOnSeedStreamAndIndex) {
  CounterRng first(42, 3), second(42, 3);
  for (std::uint64_t i : {0ull, 1ull, 1000003ull, 1ull << 40}) EXPECT_EQ(first.bits(i), second.bits(i));
  EXPECT_NE(CounterRng(42, 3).bits(5), CounterRng(43, 3).bits(5));
  EXPECT_NE(CounterRng(42, 3).bits(5), CounterRng(42, 4).bits(5));
}

TEST(RandomTest, UniformFloatsLieInTheUnitIntervalWithTheRightMean) {
  CounterRng rng(7, 0);
  const int n = 1 << 20;
  double sum32 = 0, sum64 = 0;
  for (int i = 0; i < n; ++i) {
    float x = rng.uniform_float32(i);
    double y = rng.uniform_float64(i);
    ASSERT_GE(x, 0.0f);
    ASSERT_LT(x, 1.0f);
    ASSERT_GE(y, 0.0);
    ASSERT_LT(y, 1.0);
    sum32 += x;
    sum64 += y;
  }
  // The mean's standard error is 0.29 / sqrt(n) = 2.8e-4; allow 10 of them.
  EXPECT_NEAR(sum32 / n, 0.5, 2.8e-3);
  EXPECT_NEAR(sum64 / n, 0.5, 2.8e-3);
}

TEST(RandomTest, BelowCoversTheRangeAndNothingElse) {
  CounterRng rng(9, 1);
  std::vector<int> seen(7, 0);
  for (int i = 0; i < 7000; ++i) {
    std::uint32_t v = rng.below(i, 7);
    ASSERT_LT(v, 7u);
    ++seen[v];
  }
  for (int count : seen) EXPECT_GT(count, 800);
}

TEST(RandomTest, GeneratedInputsDoNotDependOnTheThreadCount) {
  auto problem = make_problem("vector_add");
  Params params = problem->resolve("tiny", {});
#ifdef _OPENMP
  int threads = omp_get_max_threads();
  omp_set_num_threads(1);
#endif
  Arrays one = problem->generate(params, 5);
#ifdef _OPENMP
  omp_set_num_threads(3);
#endif
  Arrays several = problem->generate(params, 5);
#ifdef _OPENMP
  omp_set_num_threads(threads);
#endif
  for (const auto& [name, array] : one) EXPECT_EQ(checksum(array), checksum(several.at(name))) << name;
  EXPECT_NE(checksum(problem->generate(params, 6).at("a")), checksum(one.at("a")));
}

}  // namespace
}  // namespace ladder
