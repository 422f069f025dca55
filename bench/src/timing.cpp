// How one figure is timed: the measure() loop, with Google Benchmark
// running each batch under the TimingPolicy, and the statistics of the
// samples it keeps. A file of its own: every rung's timings, and the peers',
// go through it, and it knows nothing of rungs.
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numeric>
#include <ostream>
#include <sstream>

#include <benchmark/benchmark.h>

#include "bench/src/harness_internal.hpp"
#include "ladder/error.hpp"
#include "ladder/harness.hpp"

namespace ladder {

Clock::time_point last_output = Clock::now();

namespace {

// Google Benchmark reporter that keeps GB's own figures for the results
// JSON and prints nothing: the harness prints its own table.
class CollectingReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& run : runs) {
      // real_accumulated_time is in seconds (the manual times summed);
      // GetAdjustedRealTime() would be in the benchmark's display unit.
      nlohmann::json entry = {{"name", run.benchmark_name()},
                              {"iterations", run.iterations},
                              {"manual_time_s", run.real_accumulated_time / static_cast<double>(run.iterations)}};
      runs_.push_back(entry);
    }
  }
  nlohmann::json runs_ = nlohmann::json::array();  // errors are caught by run_batch() itself
};

// One batch of `repetitions` samples, with Google Benchmark as the loop
// (its manual-time mode: the sample says how long it took). Google
// Benchmark is only the loop here, on purpose: its own repetitions and
// statistics work per registered benchmark and know nothing of what this
// harness needs between samples (an L2 eviction that the timed region must
// not contain, a host clock for one figure and device events for another,
// the nvbench-style rule of more batches while the median's interval is
// wide, a time budget per rung), so measure() decides how many samples a
// figure gets and summarise() computes the statistics, and Google
// Benchmark's record of each batch is kept in the results as it reports it.
void run_batch(const std::string& name, long repetitions, const std::function<double()>& sample,
               std::vector<double>& samples, nlohmann::json& gb_runs) {
  std::string error;
  benchmark::RegisterBenchmark(name.c_str(),
                               [&](benchmark::State& state) {
                                 for (auto _ : state) {
                                   try {
                                     double seconds = sample();
                                     state.SetIterationTime(seconds);
                                     samples.push_back(seconds);
                                   } catch (const std::exception& e) {
                                     error = e.what();
                                     state.SkipWithError(error.c_str());
                                     break;
                                   }
                                 }
                               })
      ->UseManualTime()
      ->Iterations(repetitions)
      ->Unit(benchmark::kMillisecond);
  CollectingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  for (auto& run : reporter.runs_) gb_runs.push_back(run);
  if (!error.empty()) throw DeviceError(error);
}

}  // namespace

std::string format_time(double seconds) {
  std::ostringstream out;
  out << std::fixed;
  if (seconds >= 1)
    out << std::setprecision(2) << seconds << " s";
  else if (seconds >= 1e-3)
    out << std::setprecision(3) << seconds * 1e3 << " ms";
  else if (seconds >= 1e-6)
    out << std::setprecision(1) << seconds * 1e6 << " us";
  else
    out << std::setprecision(0) << seconds * 1e9 << " ns";
  return out.str();
}

Statistics summarise(std::vector<double> samples) {
  Statistics s;
  if (samples.empty()) return s;
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  std::size_t n = sorted.size();
  s.median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  s.min = sorted.front();
  s.max = sorted.back();
  s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / n;
  double squares = 0;
  for (double x : sorted) squares += (x - s.mean) * (x - s.mean);
  s.cv = s.mean > 0 ? std::sqrt(squares / n) / s.mean : 0;
  const double reach = 0.98 * std::sqrt(static_cast<double>(n));
  const auto below = static_cast<std::size_t>(std::max(0.0, std::floor(n / 2.0 - reach)));
  const auto above = std::min(n - 1, static_cast<std::size_t>(std::ceil(n / 2.0 + reach)));
  s.median_interval = s.median > 0 ? (sorted[above] - sorted[below]) / (2 * s.median) : 0;
  s.samples = std::move(samples);
  return s;
}

Statistics measure(const std::string& name, const TimingPolicy& policy, const std::function<double()>& sample_once,
                   nlohmann::json& gb_runs, std::ostream* progress) {
  // Each repetition, and a progress line where the run has been silent too long.
  long planned = 0, done = 0;  // repetitions in the batches begun so far, and those run
  double pilot = 0;
  auto sample = [&] {
    const double seconds = sample_once();
    if (planned == 0) return seconds;  // the pilot
    ++done;
    if (progress != nullptr && seconds_since(last_output) >= policy.progress_every) {
      *progress << "    ... " << name << ": repetition " << done << " of " << planned << ", about "
                << static_cast<long>(std::ceil(static_cast<double>(planned - done) * pilot))
                << " s left in this batch\n"
                << std::flush;
      last_output = Clock::now();
    }
    return seconds;
  };
  // A pilot repetition, not kept, sizes the first batch.
  pilot = std::max(sample(), 1e-9);
  long batch = static_cast<long>(std::ceil(policy.min_time / pilot));
  batch = std::clamp<long>(batch, policy.min_repetitions, policy.max_repetitions);
  // Two figures (compute, transfer) share the rung's budget; never fewer than 3 samples.
  const double figure_budget = policy.time_budget / 2;
  batch =
      std::max<long>(std::min(batch, static_cast<long>(figure_budget / pilot)), std::min(3, policy.min_repetitions));

  std::vector<double> samples;
  double spent = 0;  // timed seconds so far: the sum of the samples
  for (int batches = 1;; ++batches) {
    const std::size_t before = samples.size();
    planned += batch;
    run_batch(name, batch, sample, samples, gb_runs);
    spent += std::accumulate(samples.begin() + static_cast<std::ptrdiff_t>(before), samples.end(), 0.0);
    const bool steady = summarise(samples).median_interval <= policy.noise_target;
    const double per_sample = spent / static_cast<double>(samples.size());
    if (steady || batches == TimingPolicy::kMaxBatches ||
        samples.size() + static_cast<std::size_t>(batch) > static_cast<std::size_t>(policy.max_repetitions) ||
        spent + per_sample * static_cast<double>(batch) > figure_budget)
      break;
  }
  return summarise(std::move(samples));
}

nlohmann::json statistics_json(const Statistics& s) {
  return {{"median_s", s.median},
          {"min_s", s.min},
          {"max_s", s.max},
          {"mean_s", s.mean},
          {"cv", s.cv},
          {"median_interval", s.median_interval},
          {"repetitions", s.samples.size()},
          {"samples_s", s.samples}};
}

}  // namespace ladder
