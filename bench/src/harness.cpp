#include "ladder/harness.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <memory>
#include <numeric>
#include <optional>
#include <ostream>
#include <sstream>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <benchmark/benchmark.h>

#include "ladder/backends.hpp"
#include "ladder/ceil_div.hpp"
#include "ladder/error.hpp"
#include "ladder/suggest.hpp"

namespace ladder {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// When the run last printed a line: a figure that keeps it silent for
// TimingPolicy::progress_every seconds prints one (a slow naive rung takes minutes).
Clock::time_point last_output = Clock::now();

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

nlohmann::json input_checksums(const Arrays& inputs) {
  nlohmann::json checksums = nlohmann::json::object();
  for (const auto& [name, array] : inputs) {
    std::ostringstream hex;
    hex << "fnv1a64:" << std::hex << std::setw(16) << std::setfill('0') << checksum(array);
    checksums[name] = hex.str();
  }
  return checksums;
}

// The width of the rung column of the table printed as the run goes: the
// longest rung name (cuda_nccl_streams) and a space.
constexpr int kRungColumn = 19;

// The heading of the table printed as the run goes.
void print_table_header(std::ostream& out) {
  out << "  " << std::left << std::setw(kRungColumn) << "rung" << std::setw(9) << "status" << std::right << std::setw(11)
      << "compute" << std::setw(11) << "transfer" << std::setw(17) << "vs naive c/t" << std::setw(17) << "vs serial c/t"
      << std::setw(9) << "ceiling" << '\n';
}

// One row of the table printed as the run goes.
void print_row(std::ostream& out, const nlohmann::json& row) {
  last_output = Clock::now();
  out << "  " << std::left << std::setw(kRungColumn) << row["rung"].get<std::string>() << std::setw(9)
      << row["status"].get<std::string>();
  if (row["status"] != "ok") {
    // "not_implemented" is wider than the column: a space keeps it apart from the reason.
    if (row["status"].get<std::string>().size() >= 9) out << ' ';
    out << row.value("reason", std::string()) << '\n' << std::flush;
    return;
  }
  const auto& t = row["timings"];
  out << std::right << std::setw(11) << format_time(t["compute"]["median_s"]) << std::setw(11)
      << format_time(t["transfer"]["median_s"]);
  auto ratio = [](const nlohmann::json& value) {
    std::ostringstream s;
    if (value.is_null())
      s << "-";
    else
      s << std::fixed << std::setprecision(value.get<double>() < 10 ? 2 : 1) << value.get<double>();
    return s.str();
  };
  const auto& naive = t["speedup"]["vs_naive"];
  const auto& serial = t["speedup"]["vs_serial"];
  out << std::setw(9) << ratio(naive["compute"]) << std::setw(8) << ratio(naive["transfer"]) << std::setw(9)
      << ratio(serial["compute"]) << std::setw(8) << ratio(serial["transfer"]);
  // Compute-only against the device's ceiling; for a GPU rung, then its
  // transfer-inclusive time against what its bytes need over PCIe (the
  // figure that measures a rung whose compute() makes the copies itself).
  const auto& fraction = t["fraction_of_ceiling"];
  if (!fraction["compute"].is_null())
    out << std::setw(7) << std::fixed << std::setprecision(0) << fraction["compute"].get<double>() * 100 << " %";
  if (row.value("device_kind", std::string()) == "gpu" && !fraction["transfer"].is_null())
    out << " / " << std::fixed << std::setprecision(0) << fraction["transfer"].get<double>() * 100 << " % of PCIe";
  out << '\n' << std::flush;
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

void add_speedups(nlohmann::json& rows) {
  auto median_of = [&](const std::string& rung, const char* figure) -> std::optional<double> {
    for (const auto& row : rows)
      if (row["rung"] == rung && row["status"] == "ok") return row["timings"][figure]["median_s"].get<double>();
    return std::nullopt;
  };
  for (auto& row : rows) {
    if (row["status"] != "ok") continue;
    auto ratios = [&](const std::string& baseline) {
      nlohmann::json r = {{"compute", nullptr}, {"transfer", nullptr}};
      for (const char* figure : {"compute", "transfer"})
        if (auto base = median_of(baseline, figure))
          r[figure] = *base / row["timings"][figure]["median_s"].get<double>();
      return r;
    };
    row["timings"]["speedup"] = {{"vs_naive", ratios("naive")}, {"vs_serial", ratios("serial")}};
  }
}

double replicate_spread(const std::vector<double>& medians) {
  if (medians.size() < 2) return 0;
  auto [low, high] = std::minmax_element(medians.begin(), medians.end());
  double middle = summarise(medians).median;
  return middle > 0 ? (*high - *low) / middle : 0;
}

nlohmann::json merge_replicates(const std::vector<nlohmann::json>& passes) {
  nlohmann::json merged = passes.at(0);
  merged["replicates"] = passes.size();
  if (passes.size() < 2) return merged;
  auto& rows = merged["rungs"];
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto& row = rows[i];
    // A rung that failed or was skipped in any replicate is reported as that replicate saw it.
    for (std::size_t r = 0; r < passes.size(); ++r) {
      const auto& other = passes[r]["rungs"][i];
      if (other["status"] != "ok" && row["status"] == "ok") {
        row = other;
        row["reason"] = "in replicate " + std::to_string(r + 1) + ": " + other.value("reason", std::string());
      }
    }
    if (row["status"] != "ok") continue;
    auto& timings = row["timings"];
    double old_compute = timings["compute"]["median_s"], old_transfer = timings["transfer"]["median_s"];
    for (const char* figure : {"compute", "transfer", "upload", "download"}) {
      std::vector<double> pooled, medians;
      for (const auto& pass : passes) {
        const auto& figures = pass["rungs"][i]["timings"][figure];
        for (double sample : figures["samples_s"]) pooled.push_back(sample);
        medians.push_back(figures["median_s"]);
      }
      timings[figure] = statistics_json(summarise(std::move(pooled)));
      timings[figure]["replicate_medians_s"] = medians;
      timings[figure]["replicate_spread"] = replicate_spread(medians);
    }
    for (std::size_t r = 1; r < passes.size(); ++r)
      for (const auto& run : passes[r]["rungs"][i]["timings"]["google_benchmark"])
        timings["google_benchmark"].push_back(run);
    // Throughput and fraction of ceiling scale with the pooled medians.
    double compute_scale = old_compute / timings["compute"]["median_s"].get<double>();
    double transfer_scale = old_transfer / timings["transfer"]["median_s"].get<double>();
    for (auto& [name, value] : timings["throughput"].items()) value = value.get<double>() * compute_scale;
    auto& fraction = timings["fraction_of_ceiling"];
    if (!fraction["compute"].is_null()) fraction["compute"] = fraction["compute"].get<double>() * compute_scale;
    if (!fraction["transfer"].is_null())
      fraction["transfer"] =
          fraction["transfer"].get<double>() * (row["device_kind"] == "cpu" ? compute_scale : transfer_scale);
    row["high_spread"] = timings["compute"]["replicate_spread"].get<double>() > kHighSpread ||
                         timings["transfer"]["replicate_spread"].get<double>() > kHighSpread;
  }
  add_speedups(rows);
  return merged;
}

namespace {

// Outputs start as garbage, not zeros: a rung that leaves part of an output
// unwritten, or adds to what is there (a histogram that never clears its
// counts), gets a wrong answer instead of the zeros that a fresh allocation
// happens to hold. Poisoned before prepare(), which may write parts that
// never change.
void poison(Arrays& outputs) {
  for (auto& [name, array] : outputs) std::memset(array.raw(), 0xA5, array.bytes());
}

}  // namespace

void check_guard_zones(const Arrays& outputs, const std::string& step) {
  for (const auto& [name, array] : outputs) {
    const std::size_t overrun = array.guard_overrun();
    if (overrun == 0) continue;
    const std::size_t value_bytes = dtype_size(array.dtype());
    throw OutOfBounds(step + " wrote past the end of output '" + name + "' (" + array.describe() + "): up to " +
                      std::to_string(overrun) + " bytes past its end (" +
                      std::to_string(ceil_div(overrun, value_bytes)) + " " + dtype_name(array.dtype()) +
                      " value(s): is a loop bound <= where it should be <?)");
  }
}

Arrays run_once(const RungEntry& entry, const Arrays& inputs, const Params& params, const RunOptions& options,
                const Problem& problem, int computes) {
  Availability availability = rung_availability(entry.exercise, entry.rung, entry.track, options);
  if (!availability.available)
    throw DeviceError("rung " + entry.rung + " of " + entry.exercise + " cannot run here: " + availability.reason);
  Arrays outputs = problem.allocate_outputs(inputs, params);
  poison(outputs);
  auto rung = entry.make({params, options, entry.track});
  rung->attach_host_memory(inputs, outputs);
  rung->prepare(inputs, outputs);
  rung->upload();
  // Twice: the harness runs compute() again and again, and each run must
  // give the whole answer afresh (state left by the first run shows here).
  for (int i = 0; i < computes; ++i) rung->compute();
  rung->download();
  rung->collect();
  rung->synchronize();
  check_guard_zones(outputs, "compute or download");
  rung->check_device_guard_zones();
  return outputs;
}

CheckResult check_case(const RungEntry& entry, const Problem& problem, const Params& params, std::uint64_t seed,
                       const RunOptions& options, int computes) {
  const Arrays inputs = problem.generate(params, seed);
  try {
    return problem.check(run_once(entry, inputs, params, options, problem, computes), problem.reference(inputs, params));
  } catch (const DeviceError& error) {
    return {false, error.what(), {}};
  } catch (const OutOfBounds& error) {
    return {false, error.what(), {}};
  }
}

double transfer_bound(const DeviceCeilings& device, const Work& work) {
  // The pinned rates, whatever memory the rung copies from: they are what
  // the PCIe link can do. Pageable copies go through the driver's staging
  // buffers at a rate that varies with the host (7.0 and 9.1 GB/s host to
  // device on two H100 machines of one kind), so a rung could beat a
  // "ceiling" measured on them; against the link, a pageable rung shows
  // how much of the link its copies leave unused. The link is full
  // duplex, so the bound is the slower direction alone: a rung that
  // overlaps its uploads and downloads on streams can approach it, one
  // that copies in, computes, then copies out cannot. Where the probe
  // measured both directions at once, the bound is also at least the bytes
  // of both at that rate: full duplex only as far as the host feeds it.
  const double up = device.host_to_device_pinned, down = device.device_to_host_pinned;
  if (up <= 0 || down <= 0) return 0;
  const double one_way = std::max(work.bytes_in / up, work.bytes_out / down);
  const double both = device.both_directions_pinned;
  return both > 0 ? std::max(one_way, (work.bytes_in + work.bytes_out) / both) : one_way;
}

namespace {

std::string status_name(RungStatus status) {
  switch (status) {
    case RungStatus::ok:
      return "ok";
    case RungStatus::failed:
      return "failed";
    case RungStatus::skipped:
      return "skipped";
    case RungStatus::not_implemented:
      return "not_implemented";
  }
  return "unknown";
}

// Ends a rung's row early, with what it is and why.
RungResult stopped(RungResult result, RungStatus status, std::string reason) {
  result.status = status;
  result.reason = std::move(reason);
  return result;
}

// A rung on the exercise's ladder that this build or track does not have:
// skipped where its backend is missing here, not implemented otherwise.
RungResult not_built(RungResult result, const std::string& exercise, const std::string& track,
                     const RunOptions& options) {
  const bool backend_here = backend_availability(result.backend, options).available;
  std::string reason = rung_availability(exercise, result.rung, track, options).reason;
  return stopped(std::move(result), backend_here ? RungStatus::not_implemented : RungStatus::skipped,
                 std::move(reason));
}

// Why a built rung is not run here: its device is missing, or one run is
// predicted to take longer than the rung's whole time budget.
std::optional<std::string> why_skipped(const Problem& problem, const RungResult& result, const Params& params,
                                       const RunOptions& options, const TimingPolicy& policy) {
  Availability availability = backend_availability(result.backend, options);
  if (!availability.available) return availability.reason;
  auto prediction = problem.predict(result.rung, params);
  if (!prediction || prediction->seconds <= policy.time_budget) return std::nullopt;
  std::ostringstream reason;
  reason << "predicted " << std::setprecision(3) << prediction->seconds << " s per run (" << prediction->why
         << "), over the run's time budget of " << policy.time_budget << " s per rung (--time-budget)";
  return reason.str();
}

// Makes and prepares the rung and runs it once in full; nullptr, with the
// status and reason in `result`, where any of that throws.
std::unique_ptr<Rung> prepare_and_run_once(RungResult& result, const RungEntry& entry, const Arrays& inputs,
                                           Arrays& outputs, const RungContext& context) {
  try {
    auto rung = entry.make(context);
    rung->attach_host_memory(inputs, outputs);
    rung->prepare(inputs, outputs);
    result.placement = RungPlacement{rung->device_name(), rung->device_kind(), rung->uses_pinned_memory()};
    // The first full run is both the warm-up and the output check.
    rung->upload();
    rung->compute();
    rung->download();
    rung->collect();  // untimed: the timed downloads below leave the outputs where the rung keeps them
    rung->synchronize();
    check_guard_zones(outputs, "compute or download");
    rung->check_device_guard_zones();
    return rung;
  } catch (const NotImplemented& todo) {
    result = stopped(std::move(result), RungStatus::not_implemented, todo.what());
  } catch (const std::exception& e) {
    result = stopped(std::move(result), RungStatus::failed, e.what());
  }
  return nullptr;
}

// One transfer-inclusive repetition: upload, compute, download, each
// waited for; the upload's and download's own seconds are kept as well.
double time_round_trip(Rung& rung, bool warm, std::vector<double>& uploads, std::vector<double>& downloads) {
  if (!warm) rung.evict_caches();
  rung.synchronize();  // the eviction done before the host clock starts
  const auto start = Clock::now();
  rung.upload();
  rung.synchronize();
  uploads.push_back(seconds_since(start));
  rung.compute();
  rung.synchronize();
  const auto before_download = Clock::now();
  rung.download();
  rung.synchronize();
  downloads.push_back(seconds_since(before_download));
  return seconds_since(start);
}

// Compute alone, then upload + compute + download, each figure with its own
// repetitions (measure()); throws what the rung throws.
RungTimings time_rung(Rung& rung, const std::string& label, const TimingPolicy& policy, bool warm,
                      std::ostream& progress) {
  RungTimings timings;
  timings.compute = measure(
      label + "/compute", policy,
      [&] {
        if (!warm) rung.evict_caches();
        return rung.timed_compute();
      },
      timings.google_benchmark, &progress);
  std::vector<double> uploads, downloads;
  timings.transfer = measure(
      label + "/transfer", policy, [&] { return time_round_trip(rung, warm, uploads, downloads); },
      timings.google_benchmark, &progress);
  // The pilot repetition is not a sample: drop its parts too.
  uploads.erase(uploads.begin());
  downloads.erase(downloads.begin());
  timings.upload = summarise(std::move(uploads));
  timings.download = summarise(std::move(downloads));
  return timings;
}

nlohmann::json to_json(const std::optional<double>& value) { return value ? nlohmann::json(*value) : nlohmann::json(); }

nlohmann::json to_json(const RungTimings& t) {
  const CeilingFraction& fraction = t.fraction_of_ceiling;
  nlohmann::json ceiling = {{"ceiling", fraction.ceiling},
                            {"ceiling_bytes_per_s", fraction.ceiling_bytes_per_s},
                            {"compute", to_json(fraction.compute)},
                            {"transfer", to_json(fraction.transfer)},
                            {"transfer_bound_s", fraction.transfer_bound_s}};
  if (fraction.ceiling_operations_per_s > 0) ceiling["ceiling_operations_per_s"] = fraction.ceiling_operations_per_s;
  if (fraction.working_set_bytes > 0) ceiling["working_set_bytes"] = fraction.working_set_bytes;
  return {{"compute", statistics_json(t.compute)},
          {"transfer", statistics_json(t.transfer)},
          {"upload", statistics_json(t.upload)},
          {"download", statistics_json(t.download)},
          {"google_benchmark", t.google_benchmark},
          {"throughput", {{"bytes_per_s", t.bytes_per_s}, {"operations_per_s", t.operations_per_s}}},
          {"fraction_of_ceiling", ceiling}};
}

}  // namespace

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

// First which ceiling (an all-FP32 problem moves few bytes per operation:
// its bandwidth fraction would say nothing; the host's FP32 rate or the
// GPU's where measured), then the work over the time over that ceiling.
CeilingFraction fraction_of_ceiling(const Ceilings& ceilings, Backend backend, DeviceKind kind, const Work& work,
                                    const RungTimings& timings, int devices) {
  CeilingFraction fraction;
  // An openmp_target rung on a GPU runs on the NVIDIA GPU that CUDA measured (nvptx64 code).
  const bool cuda_gpu = backend == Backend::cuda || backend == Backend::openmp_target;
  const auto& device = cuda_gpu ? ceilings.cuda : ceilings.opencl;
  // A rung's own operations (Work::rung_operations) bound it only where they
  // take longer than its bytes: the roofline.
  auto bytes_bound = [&work](double bytes_per_s, double operations_per_s) {
    return work.rung_operations && bytes_per_s > 0 && work.bytes / bytes_per_s > work.operations / operations_per_s;
  };
  if (kind == DeviceKind::cpu && work.fp32_bound && ceilings.host_fp32_operations_per_s > 0 &&
      !bytes_bound(ceilings.host_bytes_per_s, ceilings.host_fp32_operations_per_s)) {
    fraction.ceiling = "host FP32 rate";
    fraction.ceiling_operations_per_s = ceilings.host_fp32_operations_per_s;
  } else if (kind == DeviceKind::cpu) {
    fraction.ceiling = "host memory bandwidth";
    fraction.ceiling_bytes_per_s = ceilings.host_bytes_per_s;
    if (auto at = ceilings.host_bytes_per_s_at.find(work.bytes);
        at != ceilings.host_bytes_per_s_at.end() && at->second > fraction.ceiling_bytes_per_s) {
      fraction.ceiling_bytes_per_s = at->second;
      fraction.working_set_bytes = work.bytes;
    }
  } else if (device && work.fp32_bound && device->fp32_operations_per_s > 0 &&
             !bytes_bound(device->copy_bytes_per_s, device->fp32_operations_per_s)) {
    fraction.ceiling = "device FP32 rate";
    fraction.ceiling_operations_per_s = device->fp32_operations_per_s;
  } else {
    fraction.ceiling = "device copy bandwidth";
    fraction.ceiling_bytes_per_s = device ? device->copy_bytes_per_s : 0;
  }
  if (kind == DeviceKind::gpu && device && cuda_gpu)
    fraction.transfer_bound_s = transfer_bound(*device, work);
  // A rung on several GPUs (one an MPI rank) has their ceilings added up, and a link each.
  if (kind == DeviceKind::gpu && devices > 1) {
    fraction.ceiling_bytes_per_s *= devices;
    fraction.ceiling_operations_per_s *= devices;
    fraction.transfer_bound_s /= devices;
  }

  if (fraction.ceiling_operations_per_s > 0)
    fraction.compute = work.operations / timings.compute.median / fraction.ceiling_operations_per_s;
  else if (fraction.ceiling_bytes_per_s > 0)
    fraction.compute = work.bytes / timings.compute.median / fraction.ceiling_bytes_per_s;
  if (kind == DeviceKind::cpu)
    fraction.transfer = fraction.compute;
  else if (fraction.transfer_bound_s > 0)
    fraction.transfer = fraction.transfer_bound_s / timings.transfer.median;
  return fraction;
}

nlohmann::json to_json(const RungResult& result) {
  nlohmann::json row = {
      {"rung", result.rung}, {"backend", backend_name(result.backend)}, {"status", status_name(result.status)}};
  if (result.status != RungStatus::ok) row["reason"] = result.reason;
  if (const auto& placement = result.placement) {
    row["device"] = placement->device;
    row["device_kind"] = placement->device_kind == DeviceKind::gpu ? "gpu" : "cpu";
    row["host_memory"] = placement->pinned ? "pinned" : "pageable";
  }
  if (const auto& check = result.check) {
    row["check"] = check->figures;
    row["check"]["ok"] = check->ok;
    row["check"]["detail"] = check->detail;
  }
  if (result.timings) row["timings"] = to_json(*result.timings);
  if (const auto& messages = result.communication) {
    row["communication"] = nlohmann::json::array();
    for (const Message& m : *messages)
      row["communication"].push_back({{"pattern", m.pattern}, {"bytes", m.bytes}, {"rounds", m.rounds}});
  }
  return row;
}

Harness::Harness(RunOptions options, TimingPolicy policy, Ceilings ceilings, std::ostream& progress)
    : options_(std::move(options)), policy_(policy), ceilings_(std::move(ceilings)), progress_(progress) {}

RungResult Harness::run_rung(const Problem& problem, const std::string& rung_name, const Arrays& inputs,
                             const Arrays& expected, const Params& params, const Work& work, const std::string& track) {
  const RungEntry* entry = find_rung(problem.name(), rung_name, track);
  RungResult result;
  result.rung = rung_name;
  result.backend = entry ? entry->backend : backend_of(rung_name);
  if (entry == nullptr) return not_built(std::move(result), problem.name(), track, options_);
  if (auto why = why_skipped(problem, result, params, options_, policy_))
    return stopped(std::move(result), RungStatus::skipped, *why);

  Arrays outputs = problem.allocate_outputs(inputs, params);
  poison(outputs);
  std::unique_ptr<Rung> rung = prepare_and_run_once(result, *entry, inputs, outputs, {params, options_, track});
  if (rung == nullptr) return result;
  result.check = problem.check(outputs, expected);
  if (!result.check->ok) return stopped(std::move(result), RungStatus::failed, "wrong output: " + result.check->detail);

  RungTimings timings;
  try {
    // A transient "timing..." on a terminal; the finished row overwrites it.
    if (&progress_ == &std::cout && ::isatty(STDOUT_FILENO))
      progress_ << "  " << std::left << std::setw(kRungColumn) << rung_name << "timing...\r" << std::flush;
    timings = time_rung(*rung, problem.name() + "/" + rung_name, policy_, options_.warm, progress_);
    check_guard_zones(outputs, "a timed repetition");
    rung->check_device_guard_zones();
  } catch (const std::exception& e) {
    return stopped(std::move(result), RungStatus::failed, std::string("while timing: ") + e.what());
  }
  // The outputs again, as the last timed repetition left them (its download
  // included): every repetition must give the whole answer afresh. A rung
  // that adds to what the run before left passes the first check only.
  if (CheckResult again = problem.check(outputs, expected); !again.ok)
    return stopped(
        std::move(result), RungStatus::failed,
        "wrong output after the timed repetitions (does compute() start afresh each time?): " + again.detail);

  Work judged = work;  // the problem's work, or the rung's own operations where it does fewer
  if (const std::optional<double> operations = rung->operations()) {
    judged.operations = *operations;
    judged.rung_operations = true;
  }
  timings.bytes_per_s = judged.bytes / timings.compute.median;
  timings.operations_per_s = judged.operations / timings.compute.median;
  timings.fraction_of_ceiling =
      fraction_of_ceiling(ceilings_, result.backend, rung->device_kind(), judged, timings, rung->device_count());
  result.status = RungStatus::ok;
  result.timings = std::move(timings);
  result.communication = rung->communication();  // after the timed runs: kappa_sigma's rounds are known
  return result;
}

void Harness::measure_host_ceiling_at(const Work& work) {
  constexpr double kSmallest = 3 << 20;  // below this the probe times its parallel loop's start-up
  if (ceilings_.host_measurement.kernel.empty() || work.bytes < kSmallest || work.bytes >= 3.0 * kHostProbeArrayBytes ||
      ceilings_.host_bytes_per_s_at.count(work.bytes))
    return;
  const HostBandwidth at = measure_host_bandwidth(std::size_t(work.bytes / 3));
  ceilings_.host_bytes_per_s_at[work.bytes] = at.bytes_per_s;
  std::ostringstream line;
  line << "  host memory bandwidth at this working set (" << std::fixed << std::setprecision(1)
       << work.bytes / (1 << 20) << " MiB): " << at.bytes_per_s / 1e9 << " GB/s (" << at.kernel << ")\n";
  progress_ << line.str();
}

std::vector<std::string> ladder_rungs(const Problem& problem) {
  std::vector<std::string> ladder = problem.rungs();
  // Then the rungs registered beyond the problem's list, in either track
  // (a participant's own, or a test's planted mistake).
  for (const std::string* track : {&kSolutionsTrack, &kExercisesTrack})
    for (const auto& rung : registered_rungs(problem.name(), *track))
      if (std::find(ladder.begin(), ladder.end(), rung) == ladder.end()) ladder.push_back(rung);
  return ladder;
}

std::vector<std::string> chosen_rungs(const Problem& problem, const std::vector<std::string>& requested) {
  const auto ladder = ladder_rungs(problem);
  if (requested.empty()) return ladder;
  for (const auto& rung : requested) {
    if (std::find(ladder.begin(), ladder.end(), rung) != ladder.end()) continue;
    std::string accepted;
    for (const auto& name : ladder) accepted += (accepted.empty() ? "" : ", ") + name;
    throw UsageError("unknown rung '" + rung + "' for " + problem.name() + did_you_mean(rung, ladder) +
                     " (accepted: " + accepted + ")");
  }
  return requested;
}

nlohmann::json Harness::run(const RunRequest& request, bool& any_failed) {
  auto problem = make_problem(request.exercise);
  Params params = problem->resolve(request.size, request.overrides);
  const std::vector<std::string> rungs = chosen_rungs(*problem, request.variants);

#ifdef _OPENMP
  if (request.threads > 0) omp_set_num_threads(request.threads);
#endif
  const int threads = openmp_threads();
  progress_ << problem->name() << " (size " << request.size;
  for (const auto& [key, value] : params.values()) progress_ << ", " << key << "=" << value;
  progress_ << ", seed " << request.seed << ", " << threads << " threads)\n" << std::flush;

  Arrays inputs = problem->generate(params, request.seed);
  Arrays expected = problem->reference(inputs, params);
  Work work = problem->work(inputs, params);
  // The host probe at this working set, for the CPU rows' ceiling: once,
  // before any rung is timed, as the run's first probe was.
  const bool any_on_the_host = std::any_of(rungs.begin(), rungs.end(),
                                           [](const std::string& rung) { return backend_of(rung) != Backend::cuda; });
  if (any_on_the_host && !work.fp32_bound) measure_host_ceiling_at(work);

  print_table_header(progress_);
  // Speed-ups against naive and serial, from their median times; the row is
  // printed with what is known when it finishes and completed at the end.
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& rung_name : rungs) {
    RungResult result = run_rung(*problem, rung_name, inputs, expected, params, work, request.track);
    if (result.status == RungStatus::failed) any_failed = true;
    rows.push_back(to_json(result));
    add_speedups(rows);  // against the baselines timed so far; complete once the last rung is done
    print_row(progress_, rows.back());
  }

  return {{"exercise", problem->name()},
          {"track", request.track},
          {"size", request.size},
          {"parameters", params.values()},
          {"seed", request.seed},
          {"threads", threads},
          {"input_checksums", input_checksums(inputs)},
          {"work",
           {{"bytes", work.bytes},
            {"operations", work.operations},
            {"bytes_in", work.bytes_in},
            {"bytes_out", work.bytes_out}}},
          {"rungs", rows}};
}

}  // namespace ladder
