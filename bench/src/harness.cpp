// The Harness: runs an exercise's rungs one after another, each checked
// before it is timed, and writes the exercise's entry of the results. What
// it calls on (the measure loop, the rows, the ceilings) has a file each.
#include "ladder/harness.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <ostream>
#include <random>
#include <sstream>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "bench/src/harness_internal.hpp"
#include "ladder/backends.hpp"
#include "ladder/error.hpp"
#include "ladder/python.hpp"
#include "ladder/suggest.hpp"

namespace ladder {
namespace {

nlohmann::json input_checksums(const Arrays& inputs) {
  nlohmann::json checksums = nlohmann::json::object();
  for (const auto& [name, array] : inputs) {
    std::ostringstream hex;
    hex << "fnv1a64:" << std::hex << std::setw(16) << std::setfill('0') << checksum(array);
    checksums[name] = hex.str();
  }
  return checksums;
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
  // Not implemented only where the participant can write it here: its
  // backend is built and has a device, and the track's library is loaded.
  const bool writable_here = backend_availability(result.backend, options).available &&
                             (track_not_loaded(track).empty() || result.backend == Backend::python);
  std::string reason = rung_availability(exercise, result.rung, track, options).reason;
  return stopped(std::move(result), writable_here ? RungStatus::not_implemented : RungStatus::skipped,
                 std::move(reason));
}

constexpr int kLeastRunsOfARung = 9;

// Why a built rung is not run here: its device is missing, or one run is
// predicted to take longer than the rung's whole time budget.
std::optional<std::string> why_skipped(const Problem& problem, const RungResult& result, const Params& params,
                                       const std::string& track, const RunOptions& options,
                                       const TimingPolicy& policy) {
  // A Python rung needs its own modules and device besides an interpreter.
  Availability availability = result.backend == Backend::python
                                  ? python_rung_availability(problem.name(), result.rung, track, options)
                                  : backend_availability(result.backend, options);
  if (!availability.available) return availability.reason;
  auto prediction = problem.predict(result.rung, params);
  // A Python rung's budget covers the least the harness runs it: the checked
  // first run, then a pilot and three samples of each of its two figures.
  const int runs = result.backend == Backend::python ? kLeastRunsOfARung : 1;
  if (!prediction || prediction->seconds * runs <= policy.time_budget) return std::nullopt;
  std::ostringstream reason;
  reason << "predicted " << std::setprecision(3) << prediction->seconds << " s per run (" << prediction->why << ")"
         << (runs > 1 ? " times the " + std::to_string(runs) + " runs it needs at least" : "")
         << ", over the run's time budget of " << policy.time_budget << " s per rung (--time-budget)";
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
    result.placement = RungPlacement{rung->device_name(), rung->device_kind(), rung->uses_pinned_memory(),
                                     rung->compute_timed_on_host_clock(), rung->host_work_in_compute()};
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

// Upload and download alone, each waited for, kCopyProbes times: what a
// round trip adds to compute. Harmless without a compute between them (the
// download copies the last result again).
constexpr int kCopyProbes = 3;
constexpr double kDerivedCopyShare = 0.01;
void time_copies(Rung& rung, std::vector<double>& uploads, std::vector<double>& downloads) {
  for (int probe = 0; probe < kCopyProbes; ++probe) {
    rung.synchronize();
    auto start = Clock::now();
    rung.upload();
    rung.synchronize();
    uploads.push_back(seconds_since(start));
    start = Clock::now();
    rung.download();
    rung.synchronize();
    downloads.push_back(seconds_since(start));
  }
}

// The transfer-inclusive figure as compute's samples plus the copies' medians.
Statistics derived_transfer(const Statistics& compute, const Statistics& upload, const Statistics& download) {
  std::vector<double> samples = compute.samples;
  for (double& sample : samples) sample += upload.median + download.median;
  return summarise(std::move(samples));
}

// Compute alone, then upload + compute + download, each figure with its own
// repetitions (measure()); throws what the rung throws. A rung on the host's
// clock whose copies cost under kDerivedCopyShare of its compute (every CPU
// rung that shares the host's arrays) has its transfer figure derived: compute
// + upload + download, timed apart. A round trip would time the same sum again
// and take as long as compute did: half of a slow CPU rung's time.
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
  if (rung.compute_timed_on_host_clock() && policy.derive_cheap_transfers) {
    time_copies(rung, uploads, downloads);
    timings.upload = summarise(uploads);
    timings.download = summarise(downloads);
    if (timings.upload.median + timings.download.median <= kDerivedCopyShare * timings.compute.median) {
      timings.transfer = derived_transfer(timings.compute, timings.upload, timings.download);
      timings.transfer_derived = true;
      return timings;
    }
    uploads.clear();
    downloads.clear();
  }
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

// Another array's bytes into each of `to`'s, in place: the rung keeps
// pointers to them. The shapes are the same (the same parameters).
void copy_bytes(const Arrays& from, Arrays& to) {
  for (auto& [name, array] : to) std::memcpy(array.raw(), from.at(name).raw(), array.bytes());
}

}  // namespace

std::uint64_t drawn_seed() {
  std::random_device device;
  const std::uint64_t high = device(), low = device();
  return ((high << 32) | low) >> 2;  // below 2^62, as --seed accepts
}

// Once more, untimed, after the timing: the run's inputs rewritten with
// those of a seed drawn now, the outputs poisoned, one full run, checked
// against their own reference. A rung that computed once and replays that
// answer, that stopped reading its inputs, or that writes only part of its
// outputs after its first run gives the old answer here. The run's own
// inputs are put back for the next rung. The words of the failure, or nullopt.
std::optional<std::string> Harness::fails_on_fresh_inputs(Rung& rung, const Problem& problem, Arrays& inputs,
                                                          Arrays& outputs) const {
  copy_bytes(fresh_->inputs, inputs);
  std::optional<std::string> failure;
  try {
    rung.inputs_changed(inputs);
    poison(outputs);
    rung.upload();
    rung.compute();
    rung.download();
    rung.collect();
    rung.synchronize();
    check_guard_zones(outputs, "the run on fresh inputs");
    rung.check_device_guard_zones();
    if (CheckResult fresh = problem.check(outputs, fresh_->expected); !fresh.ok)
      failure = "wrong output on fresh inputs (seed " + std::to_string(fresh_->seed) +
                ", drawn after the timing): does compute() read its inputs and write every output each time, or "
                "replay an earlier answer? " + fresh.detail;
  } catch (const std::exception& e) {
    failure = std::string("on fresh inputs, after the timing: ") + e.what();
  }
  copy_bytes(fresh_->original, inputs);
  return failure;
}

Harness::Harness(RunOptions options, TimingPolicy policy, Ceilings ceilings, std::ostream& progress)
    : options_(std::move(options)), policy_(policy), ceilings_(std::move(ceilings)), progress_(progress) {}

RungResult Harness::run_rung(const Problem& problem, const std::string& rung_name, Arrays& inputs,
                             const Arrays& expected, const Params& params, const Work& work, const std::string& track) {
  const RungEntry* entry = find_rung(problem.name(), rung_name, track);
  RungResult result;
  result.rung = rung_name;
  result.backend = entry ? entry->backend : backend_of(rung_name);
  if (entry == nullptr) return not_built(std::move(result), problem.name(), track, options_);
  if (auto why = why_skipped(problem, result, params, track, options_, policy_))
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
    // Under the fresh-input check the timed repetitions must write the
    // outputs anew: poisoned, the check after them shows what they left
    // (collected from the ranks or the worker's shared files first, below).
    if (fresh_) poison(outputs);
    timings = time_rung(*rung, problem.name() + "/" + rung_name, policy_, options_.warm, progress_);
    check_guard_zones(outputs, "a timed repetition");
    rung->check_device_guard_zones();
  } catch (const std::exception& e) {
    return stopped(std::move(result), RungStatus::failed, std::string("while timing: ") + e.what());
  }
  // The outputs again, as the last timed repetition left them (its download
  // included): every repetition must give the whole answer afresh. A rung
  // that adds to what the run before left passes the first check only.
  // A Python rung's outputs come into ladder's arrays from its shared files
  // in collect(). (An MPI rung's is a step of all its ranks, made once,
  // untimed, except under the fresh-input check, which poisoned the outputs.)
  try {
    if (result.backend == Backend::python || fresh_) rung->collect();
  } catch (const std::exception& e) {
    return stopped(std::move(result), RungStatus::failed, std::string("after timing: ") + e.what());
  }
  if (CheckResult again = problem.check(outputs, expected); !again.ok)
    return stopped(
        std::move(result), RungStatus::failed,
        "wrong output after the timed repetitions (does compute() start afresh each time?): " + again.detail);
  if (fresh_)
    if (std::optional<std::string> failure = fails_on_fresh_inputs(*rung, problem, inputs, outputs))
      return stopped(std::move(result), RungStatus::failed, *failure);

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
  result.language = rung->language();
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
  // The Python rungs last, in the courses' order (python_ladder_position).
  std::stable_sort(ladder.begin(), ladder.end(), [](const std::string& a, const std::string& b) {
    const bool a_python = backend_of(a) == Backend::python, b_python = backend_of(b) == Backend::python;
    if (a_python != b_python) return b_python;
    return a_python && std::pair(python_ladder_position(a), a) < std::pair(python_ladder_position(b), b);
  });
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
  progress_ << ", seed " << (request.seed_drawn ? "drawn at run time" : std::to_string(request.seed)) << ", "
            << threads << " threads)\n" << std::flush;

  Arrays inputs = problem->generate(params, request.seed);
  Arrays expected = problem->reference(inputs, params);
  fresh_.reset();
  if (options_.fresh_inputs) {
    fresh_.emplace();
    fresh_->seed = drawn_seed();
    fresh_->inputs = problem->generate(params, fresh_->seed);
    fresh_->expected = problem->reference(fresh_->inputs, params);
    fresh_->original = inputs;  // a deep copy, to put back after each rung's check
  }
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

  nlohmann::json entry = {{"exercise", problem->name()},
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
  // A hand-in's seeds: what a reviewer needs to run the same cases again.
  if (request.seed_drawn) entry["seed_drawn"] = true;
  if (fresh_) entry["fresh_inputs_seed"] = fresh_->seed;
  return entry;
}

}  // namespace ladder
