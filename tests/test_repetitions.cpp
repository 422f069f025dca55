// How one figure is timed: the repetitions measure() runs under a
// TimingPolicy, and the statistics summarise() makes of them. The sample
// functions report times without taking them: the rule is about the
// samples' values and their sum, not the wall clock.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "ladder/harness.hpp"

namespace ladder {
namespace {

// Each call returns the next of `seconds`, the last one again once they run out.
std::function<double()> samples_of(std::vector<double> seconds) {
  return [seconds = std::move(seconds), next = std::size_t{0}]() mutable {
    return seconds[std::min(next++, seconds.size() - 1)];
  };
}

// How many samples measure() keeps of a figure whose every repetition takes `seconds`.
std::size_t kept_samples(const TimingPolicy& policy, double seconds) {
  nlohmann::json gb_runs = nlohmann::json::array();
  return measure("constant", policy, samples_of({seconds}), gb_runs).samples.size();
}

TEST(StatisticsTest, MedianMinMaxAndSpread) {
  Statistics odd = summarise({3, 1, 2});
  EXPECT_EQ(odd.median, 2);
  EXPECT_EQ(odd.min, 1);
  EXPECT_EQ(odd.max, 3);
  EXPECT_EQ(odd.samples, (std::vector<double>{3, 1, 2})) << "samples keep their order";
  Statistics even = summarise({4, 1, 3, 2});
  EXPECT_EQ(even.median, 2.5);
  EXPECT_NEAR(even.cv, std::sqrt(1.25) / 2.5, 1e-12);
  EXPECT_EQ(summarise({5, 5, 5}).cv, 0);
}

TEST(StatisticsTest, MedianIntervalComesFromTheOrderStatistics) {
  // n = 100: the interval runs from the 40th to the 60th smallest sample
  // (50 -+ 0.98 * 10), whatever the spread beyond them.
  std::vector<double> samples;
  for (int i = 0; i < 100; ++i) samples.push_back(100 + i);
  samples[0] = 1;  // an outlier moves neither end of the interval
  Statistics s = summarise(samples);
  EXPECT_EQ(s.median, 149.5);
  EXPECT_NEAR(s.median_interval, (160.0 - 140.0) / (2 * 149.5), 1e-12);
  // n = 5: too few for an inner interval; it spans every sample.
  EXPECT_NEAR(summarise({9, 10, 10, 10, 11}).median_interval, 0.1, 1e-12);
  EXPECT_EQ(summarise({7, 7, 7, 7, 7}).median_interval, 0);
}

// measure() with a sample function that reports times without taking them:
// the rule is about the samples' values and their sum, not the wall clock.
TEST(MeasureTest, ASteadyFigureStopsAfterItsFirstBatch) {
  TimingPolicy policy;
  policy.min_time = 0.01;  // the first batch: 10 ms / 1 ms = 10 samples
  int calls = 0;
  nlohmann::json gb_runs = nlohmann::json::array();
  Statistics s = measure("steady", policy, [&] { return ++calls, 1e-3; }, gb_runs);
  EXPECT_EQ(s.samples.size(), 10u);
  EXPECT_EQ(calls, 11) << "the pilot repetition is run but not kept";
  EXPECT_EQ(s.median_interval, 0);
  EXPECT_EQ(gb_runs.size(), 1u) << "one batch";
  // Google Benchmark's own figure for the batch, per repetition and in seconds.
  EXPECT_EQ(gb_runs[0]["iterations"], 10);
  EXPECT_NEAR(gb_runs[0]["manual_time_s"].get<double>(), 1e-3, 1e-9);
}

// A long figure is never silent: with progress_every at 0 every repetition
// after the pilot prints one line, naming the figure and what is left.
TEST(MeasureTest, ALongFigurePrintsProgress) {
  TimingPolicy policy;
  policy.min_time = 0.01;  // 10 repetitions of 1 ms
  policy.progress_every = 0;
  nlohmann::json gb_runs = nlohmann::json::array();
  std::ostringstream progress;
  measure("vector_add/naive/compute", policy, [] { return 1e-3; }, gb_runs, &progress);
  const std::string text = progress.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 10) << text;
  EXPECT_NE(text.find("vector_add/naive/compute: repetition 1 of 10, about 1 s left in this batch"), std::string::npos) << text;
  EXPECT_NE(text.find("repetition 10 of 10, about 0 s left"), std::string::npos) << text;
  std::ostringstream quiet;
  policy.progress_every = 1e9;
  measure("vector_add/naive/compute", policy, [] { return 1e-3; }, gb_runs, &quiet);
  EXPECT_TRUE(quiet.str().empty()) << quiet.str();
}

TEST(MeasureTest, ANoisyFigureGetsUpToFourBatches) {
  TimingPolicy policy;
  policy.min_time = 0.01;
  int calls = 0;
  // 1 ms and 2 ms by turns: the median's interval never narrows to 1 %.
  nlohmann::json gb_runs = nlohmann::json::array();
  Statistics s = measure("noisy", policy, [&] { return (++calls % 2 ? 1e-3 : 2e-3); }, gb_runs);
  const std::size_t first_batch = static_cast<std::size_t>(std::ceil(0.01 / 1e-3));  // sized by the 1 ms pilot
  EXPECT_EQ(s.samples.size(), TimingPolicy::kMaxBatches * first_batch);
  EXPECT_EQ(gb_runs.size(), static_cast<std::size_t>(TimingPolicy::kMaxBatches));
  EXPECT_GT(s.median_interval, policy.noise_target);
}

TEST(MeasureTest, NoisyFiguresStopWithinTheRepetitionCapAndTheTimeBudget) {
  TimingPolicy policy;
  policy.min_time = 0.01;
  int calls = 0;
  auto noisy = [&] { return (++calls % 2 ? 1e-3 : 2e-3); };
  nlohmann::json gb_runs = nlohmann::json::array();
  policy.max_repetitions = 25;  // room for two batches of 10, not three
  EXPECT_EQ(measure("capped", policy, noisy, gb_runs).samples.size(), 20u);
  policy.max_repetitions = 1000;
  policy.time_budget = 2 * 0.035;  // 35 ms for this figure: three batches of 10 samples (~15 ms each) do not fit
  Statistics s = measure("budget", policy, noisy, gb_runs);
  EXPECT_EQ(s.samples.size(), 20u);
  EXPECT_LE(std::accumulate(s.samples.begin(), s.samples.end(), 0.0), 0.035);
}

// The first batch is sized by the pilot: min_time over the pilot's
// seconds. The pilot itself is no sample, whatever it took.
TEST(MeasureTest, ThePilotSizesTheFirstBatchAndIsDropped) {
  TimingPolicy policy;
  policy.min_time = 0.02;
  nlohmann::json gb_runs = nlohmann::json::array();
  // A 2 ms pilot, then 1 ms repetitions: 0.02 / 0.002 = 10 of them.
  Statistics s = measure("pilot", policy, samples_of({2e-3, 1e-3}), gb_runs);
  EXPECT_EQ(s.samples, std::vector<double>(10, 1e-3));
  EXPECT_EQ(s.max, 1e-3) << "the pilot's 2 ms is not a sample";
}

// However short min_time is, a figure gets min_repetitions.
TEST(MeasureTest, AtLeastMinRepetitions) {
  TimingPolicy policy;  // min_time 0.2 s: two repetitions of 0.1 s would reach it
  EXPECT_EQ(kept_samples(policy, 0.1), 5u);
  policy.min_repetitions = 7;
  EXPECT_EQ(kept_samples(policy, 0.1), 7u);
}

// Compute and transfer share the rung's time budget: each figure gets half
// of it, as many repetitions as fit, and never fewer than 3.
TEST(MeasureTest, ASlowFigureGetsFewerRepetitionsButAtLeastThree) {
  TimingPolicy policy;                       // time_budget 60 s: 30 s per figure
  EXPECT_EQ(kept_samples(policy, 5.0), 5u);  // 6 would fit; 5 asked for
  EXPECT_EQ(kept_samples(policy, 10.0), 3u);
  EXPECT_EQ(kept_samples(policy, 20.0), 3u);  // 1 fits; 3 all the same
  policy.min_repetitions = 2;
  EXPECT_EQ(kept_samples(policy, 20.0), 2u);
}

// What measure() returns is summarise() of the kept samples, in the order
// they were taken.
TEST(MeasureTest, ReturnsTheStatisticsOfTheKeptSamples) {
  TimingPolicy policy;
  policy.min_time = 0.005;     // a 1.5 ms pilot: ceil(3.3) = 4 repetitions, 5 with min_repetitions
  policy.max_repetitions = 5;  // no room for a second batch, however noisy the first
  nlohmann::json gb_runs = nlohmann::json::array();
  Statistics s = measure("known", policy, samples_of({1.5e-3, 3e-3, 1e-3, 4e-3, 1e-3, 5e-3}), gb_runs);
  EXPECT_EQ(s.samples, (std::vector<double>{3e-3, 1e-3, 4e-3, 1e-3, 5e-3}));
  EXPECT_EQ(s.median, 3e-3);
  EXPECT_EQ(s.min, 1e-3);
  EXPECT_EQ(s.max, 5e-3);
  EXPECT_NEAR(s.mean, 2.8e-3, 1e-15);
  EXPECT_NEAR(s.cv, 1.6 / 2.8, 1e-12);  // population standard deviation 1.6 ms over the mean
  // n = 5: the median's interval spans every sample, (5 - 1) / (2 * 3).
  EXPECT_NEAR(s.median_interval, 4.0 / 6.0, 1e-12);
  EXPECT_EQ(gb_runs.size(), 1u);
}

}  // namespace
}  // namespace ladder
