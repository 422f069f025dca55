#pragma once
// The harness: runs every rung of an exercise the same way. It checks the
// output against the reference before timings count, then times compute
// alone and upload + compute + download with Google Benchmark driving the
// repetitions, and turns the samples into statistics, speed-ups and the
// fraction of the device's measured ceiling.
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ladder/problem.hpp"
#include "ladder/backends.hpp"

namespace ladder {

struct Statistics {
  double median = 0, min = 0, max = 0, mean = 0, cv = 0;  // seconds; cv = stddev / mean
  std::vector<double> samples;
};
Statistics summarise(std::vector<double> samples);
std::string format_time(double seconds);  // "1.23 ms"

struct TimingPolicy {
  double min_time = 0.2;      // seconds of timed work per figure, at least
  int min_repetitions = 10;
  int max_repetitions = 1000;
  // Seconds one rung may take in all: a rung predicted to need more for one
  // compute is skipped; a slow one gets fewer repetitions (at least 3).
  double time_budget = 60;
};

// Measured (or given) ceilings of this run's devices, bytes per second.
struct Ceilings {
  double host_bytes_per_s = 0;
  int host_threads = 0;
  std::optional<DeviceCeilings> cuda;
  std::optional<DeviceCeilings> opencl;
};
// Host memory bandwidth: the best of a few passes of a parallel a + b over
// arrays far larger than the caches (12 bytes per element).
double measure_host_bandwidth();

// Runs one rung once, untimed: prepare, upload, compute, download. The
// outputs are the rung's; `solve`, `check` and the tests use this.
Arrays run_once(const RungEntry& entry, const Arrays& inputs, const Params& params, const RunOptions& options,
                const Problem& problem);

struct RunRequest {
  std::string exercise;
  std::string size = "workshop";
  Params overrides;
  std::vector<std::string> variants;  // empty: every rung of the exercise
  std::uint64_t seed = 1;
  int threads = 0;  // OpenMP threads for this request; 0 = as the run was started
  std::string track = "solutions";  // or "exercises": the participant's rungs
};

class Harness {
 public:
  Harness(RunOptions options, TimingPolicy policy, Ceilings ceilings, std::ostream& progress);

  // One exercise at one size: the results JSON's entry for it. Sets
  // `any_failed` when a rung failed its check or threw.
  nlohmann::json run(const RunRequest& request, bool& any_failed);

 private:
  nlohmann::json run_rung(const Problem& problem, const std::string& rung_name, const Arrays& inputs,
                          const Arrays& expected, const Params& params, const Work& work, const std::string& track);
  RunOptions options_;
  TimingPolicy policy_;
  Ceilings ceilings_;
  std::ostream& progress_;
};

// The run's context: suite version, host, compiler, runtimes, devices.
nlohmann::json run_context(const RunOptions& options, const Ceilings& ceilings, const std::string& command_line);

constexpr int kSchemaVersion = 1;

}  // namespace ladder
