// primes: every rung gives the reference's flags exactly on every check case
// (naive, being quadratic, on those it finishes quickly); rungs that cannot
// run here are skipped, never passed. The reference agrees with known prime
// counts, the time predictions skip naive where it would run for days, and
// bad values of n are refused with one clear message.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <numeric>

#include "ladder/error.hpp"
#include "ladder/harness.hpp"
#include "ladder/npy.hpp"
#include "ladder/registry.hpp"
#include "run_ladder.hpp"
#include "rung_test.hpp"

namespace ladder {
namespace {

Params primes_n(const std::string& n) { return Params(std::map<std::string, std::string>{{"n", n}}); }

std::uint64_t count_primes(const Array& flags) {
  auto view = flags.view<std::uint8_t>();
  return std::accumulate(view.begin(), view.end(), std::uint64_t{0});
}

using testing::RungCase;

class PrimesRungTest : public ::testing::TestWithParam<RungCase> {};

TEST_P(PrimesRungTest, MatchesTheReferenceExactlyOnEveryCheckCase) {
  if (GetParam().rung != "naive") {
    // Either side of the sieves' segment boundaries (32 Ki odd numbers span
    // 65536 numbers): one segment exactly, one entry more, a pair cut in half.
    testing::expect_rung_matches_reference("primes", GetParam(),
                                           {primes_n("65535"), primes_n("65537"), primes_n("131071"),
                                            primes_n("131073"), primes_n("196610"), primes_n("1048577")});
    return;
  }
  // naive is quadratic (10^7 would take days): the check cases it is
  // predicted to finish within a second, which still include 0 ... 4, a
  // prime, a prime + 1 and 65536.
  auto problem = make_problem("primes");
  const RungEntry* entry = find_rung("primes", "naive");
  ASSERT_NE(entry, nullptr);
  int tried = 0;
  for (const CheckCase& check_case : problem->check_cases()) {
    Params params = problem->resolve("tiny", check_case.params);
    auto prediction = problem->predict("naive", params);
    if (prediction && prediction->seconds > 1.0) continue;
    SCOPED_TRACE("n=" + params.text("n"));
    Arrays inputs = problem->generate(params, 1);
    CheckResult result =
        problem->check(run_once(*entry, inputs, params, {}, *problem), problem->reference(inputs, params));
    EXPECT_TRUE(result.ok) << result.detail;
    ++tried;
  }
  EXPECT_GE(tried, 8);
}

INSTANTIATE_TEST_SUITE_P(Rungs, PrimesRungTest, ::testing::ValuesIn(testing::rung_cases("primes")),
                         testing::rung_case_name);

TEST(PrimesTest, LadderPutsEachTrialDivisionRungBeforeItsSieve) {
  EXPECT_EQ(make_problem("primes")->rungs(),
            (std::vector<std::string>{"naive", "serial", "openmp", "opencl_trial", "opencl", "cuda_trial", "cuda"}));
}

TEST(PrimesTest, ReferenceFlagsZeroToTwentyAsCheckedByHand) {
  auto problem = make_problem("primes");
  Arrays flags = problem->reference({}, primes_n("21"));
  ASSERT_EQ(flags.at("flags").describe(), "uint8 array of shape (21,)");
  const std::vector<std::uint8_t> expected = {0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0};
  auto got = flags.at("flags").view<std::uint8_t>();
  EXPECT_EQ(std::vector<std::uint8_t>(got.begin(), got.end()), expected);
}

TEST(PrimesTest, ReferenceCountsMatchThePrimeCountingFunction) {
  auto problem = make_problem("primes");
  // flags cover 0 <= k < n, so the count is pi(n - 1); neither 10^5 nor 10^7 is prime.
  EXPECT_EQ(count_primes(problem->reference({}, primes_n("100000")).at("flags")), 9592u);
  EXPECT_EQ(count_primes(problem->reference({}, primes_n("10000000")).at("flags")), 664579u);
  EXPECT_EQ(count_primes(problem->reference({}, primes_n("7920")).at("flags")), 1000u);  // 7919 is the 1000th prime
  EXPECT_EQ(count_primes(problem->reference({}, primes_n("7919")).at("flags")), 999u);
}

TEST(PrimesTest, EmptyAndTinyOutputsForNZeroOneTwoThree) {
  auto problem = make_problem("primes");
  EXPECT_EQ(problem->reference({}, primes_n("0")).at("flags").size(), 0u);
  EXPECT_EQ(count_primes(problem->reference({}, primes_n("1")).at("flags")), 0u);
  EXPECT_EQ(count_primes(problem->reference({}, primes_n("2")).at("flags")), 0u);  // only 0 and 1
  EXPECT_EQ(count_primes(problem->reference({}, primes_n("3")).at("flags")), 1u);  // 2
}

TEST(PrimesTest, CheckReportsTheCountOfPrimes) {
  auto problem = make_problem("primes");
  Arrays expected = problem->reference({}, primes_n("100000"));
  CheckResult result = problem->check(expected, expected);
  EXPECT_TRUE(result.ok);
  EXPECT_EQ(result.figures["primes_below_n"], 9592);
  Arrays wrong = expected;
  wrong["flags"].view<std::uint8_t>()[1] = 1;  // the lesson's mistake: 1 marked prime
  result = problem->check(wrong, expected);
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.detail.find("index 1: expected 0, got 1"), std::string::npos) << result.detail;
}

TEST(PrimesTest, PredictionSkipsNaiveAtTheLargeSizeButNotAtTheWorkshopSize) {
  auto problem = make_problem("primes");
  auto large = problem->predict("naive", problem->resolve("large", {}));
  ASSERT_TRUE(large.has_value());
  EXPECT_GT(large->seconds, 3600);  // days, against a default budget of 60 s
  EXPECT_NE(large->why.find("quadratic"), std::string::npos);
  auto workshop = problem->predict("naive", problem->resolve("workshop", {}));
  ASSERT_TRUE(workshop.has_value());
  EXPECT_LT(workshop->seconds, 5);
  // Trial division to sqrt(k) on a GPU stays within the budget at 10^8.
  auto trial = problem->predict("cuda_trial", problem->resolve("large", {}));
  ASSERT_TRUE(trial.has_value());
  EXPECT_LT(trial->seconds, 60);
  EXPECT_FALSE(problem->predict("serial", problem->resolve("large", {})).has_value());
  EXPECT_FALSE(problem->predict("cuda", problem->resolve("large", {})).has_value());
}

TEST(PrimesTest, HasNoInputsAndFlagsOfLengthN) {
  auto problem = make_problem("primes");
  EXPECT_TRUE(problem->inputs().empty());
  Params params = problem->resolve("tiny", {});
  EXPECT_TRUE(problem->generate(params, 1).empty());
  EXPECT_EQ(problem->allocate_outputs({}, params).at("flags").describe(), "uint8 array of shape (10007,)");
  EXPECT_EQ(problem->resolve("workshop", {}).text("n"), "100000");
  EXPECT_EQ(problem->resolve("large", {}).text("n"), "100000000");
}

TEST(PrimesTest, WorkIsOneByteWrittenAndOneClassificationPerNumber) {
  auto problem = make_problem("primes");
  Work work = problem->work({}, primes_n("1000"));
  EXPECT_EQ(work.bytes, 1000);
  EXPECT_EQ(work.operations, 1000);
  EXPECT_EQ(work.bytes_in, 0);
  EXPECT_EQ(work.bytes_out, 1000);
}

TEST(PrimesTest, RefusesAMissingNegativeFractionalOrTooLargeN) {
  auto problem = make_problem("primes");
  auto refused = [&](const Params& params, const std::string& fragment) {
    testing::expect_usage_error([&] { problem->validate({}, params); }, fragment);
  };
  refused(Params(), "primes needs n: --param n=N (an integer from 0 to 4294967295");
  refused(primes_n("-1"), "parameter n=-1 is refused by primes (accepted: an integer from 0 to 4294967295");
  refused(primes_n("2.5"), "parameter n=2.5 is refused by primes");
  refused(primes_n("4294967296"), "parameter n=4294967296 is refused by primes");
  refused(primes_n("many"), "parameter n=many is not a number");
  EXPECT_NO_THROW(problem->validate({}, primes_n("0")));
  EXPECT_NO_THROW(problem->validate({}, primes_n("4294967295")));
  // The size presets and --param go through the declared range too.
  EXPECT_THROW(problem->resolve("workshop", primes_n("-1")), UsageError);
  EXPECT_THROW(problem->resolve("workshop", primes_n("1e10")), UsageError);
}

// `ladder solve primes` through the program, as a user calls it.
using Outcome = testing::LadderOutcome;

Outcome ladder_program(const std::filesystem::path& directory, const std::string& arguments) {
  return testing::run_ladder(directory, arguments);
}

TEST(PrimesTest, SolveTakesNFromParamAndRefusesItsAbsence) {
  const auto directory = ladder::testing::test_folder("primes_solve");
  std::filesystem::remove_all(directory);
  std::filesystem::create_directories(directory);

  Outcome outcome = ladder_program(directory, "solve primes --variant serial --param n=100 --output flags.npy");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  Array flags = read_npy((directory / "flags.npy").string());
  auto expected = make_problem("primes")->reference({}, primes_n("100"));
  EXPECT_TRUE(check_identical({{"flags", flags}}, expected).ok);
  EXPECT_EQ(count_primes(flags), 25u);

  outcome = ladder_program(directory, "solve primes --variant serial --output missing.npy");
  EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
  EXPECT_NE(outcome.output.find("primes needs n: --param n=N"), std::string::npos) << outcome.output;
  EXPECT_FALSE(std::filesystem::exists(directory / "missing.npy"));

  outcome = ladder_program(directory, "solve primes --variant serial --param n=-5 --output negative.npy");
  EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
  EXPECT_NE(outcome.output.find("parameter n=-5 is out of range for primes"), std::string::npos) << outcome.output;
  EXPECT_FALSE(std::filesystem::exists(directory / "negative.npy"));
  std::filesystem::remove_all(directory);
}

// The planted mistake: the textbook sieve with its bound one short, p * p <
// n - 1 where it must be p * p <= n - 1 (the largest number is n - 1), so
// that n - 1, when it is the square of a prime, stays prime. It passed
// every check case until the cases with n - 1 = 3 * 3 and 997 * 997 came:
// those two, and no other, fail it. A test-only rung of the planted track,
// which neither `ladder` nor the rung tests see.
class PlantedSieveBoundOneShort final : public HostRung {
 public:
  explicit PlantedSieveBoundOneShort(const RungContext&) {}
  void prepare(const Arrays&, Arrays& outputs) override { flags_ = outputs.at("flags").view<std::uint8_t>(); }
  void compute() override {
    const std::int64_t n = static_cast<std::int64_t>(flags_.size());
    for (std::int64_t k = 0; k < n; ++k) flags_[k] = k >= 2;
    for (std::int64_t p = 2; p * p < n - 1; ++p)
      if (flags_[p])
        for (std::int64_t multiple = p * p; multiple < n; multiple += p) flags_[multiple] = 0;
  }

 private:
  std::span<std::uint8_t> flags_;
};
LADDER_REGISTER_RUNG_IN_TRACK(testing::kPlantedTrack, primes, serial_sieve_bound_one_short, PlantedSieveBoundOneShort);

TEST(PrimesPlantedMistake, SieveBoundOneShortFailsTheCasesNamedForItAndNoOther) {
  testing::expect_planted_mistake_caught("primes", "serial_sieve_bound_one_short",
                                         "the sieve's bound off by one (n - 1 = 3 * 3 left prime)");
  EXPECT_EQ(testing::failed_check_cases("primes", "serial_sieve_bound_one_short"),
            (std::vector<std::string>{"the sieve's bound off by one (n - 1 = 3 * 3 left prime)",
                                      "the sieve's bound off by one past a segment (n - 1 = 997 * 997)"}));
}

}  // namespace
}  // namespace ladder
