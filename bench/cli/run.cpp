// `ladder run [EXERCISE...]`: measure this machine's ceilings, check and time
// each chosen rung (the harness), print the speed-up table and write the
// results JSON with the run's context; --replicates N repeats it all,
// interleaved, and reports the spread between the replicates. --sweep
// ranks=V1,V2 is run_ranks.cpp's. `ladder pace`: the harness's measure()
// for a timer in another process (reports/peer_tools.py's peers).

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "bench/cli/cli.hpp"
#include "bench/cli/hand_in.hpp"
#include "ladder/backends.hpp"
#include "ladder/error.hpp"
#include "ladder/npy.hpp"

namespace ladder::cli {
namespace {

bool any_derived_transfer(const nlohmann::json& results) {
  for (const auto& entry : results)
    for (const auto& row : entry["rungs"])
      if (row["status"] == "ok" && row["timings"]["transfer"].contains("derived")) return true;
  return false;
}

// After a run with replicates: each row's spread between the replicates'
// medians, and a warning for every row whose spread is high. (The name
// column fits the longest exercise name, batched_matmul, and a space.)
void print_replicate_spreads(const nlohmann::json& results) {
  std::cout << "spread between replicates (max - min of the replicate medians, over their median):\n";
  int high = 0;
  for (const auto& entry : results) {
    for (const auto& row : entry["rungs"]) {
      if (row["status"] != "ok") continue;
      const auto& t = row["timings"];
      std::cout << "  " << std::left << std::setw(15) << entry["exercise"].get<std::string>() << std::setw(16)
                << row["rung"].get<std::string>() << std::right << std::setw(11)
                << format_time(t["compute"]["median_s"]) << std::fixed << std::setprecision(1) << std::setw(7)
                << t["compute"]["replicate_spread"].get<double>() * 100 << " %" << std::setw(11)
                << format_time(t["transfer"]["median_s"]) << std::setw(7)
                << t["transfer"]["replicate_spread"].get<double>() * 100 << " %"
                << (row.value("high_spread", false) ? "   high spread" : "") << '\n';
      high += row.value("high_spread", false);
    }
  }
  std::cout << std::defaultfloat;
  if (high)
    std::cerr << "warning: " << high << " row(s) vary by more than " << kHighSpread * 100
              << " % between replicates: this machine cannot reproduce them more closely\n";
}

// --min-time, --repetitions, --time-budget and --round-trips over the defaults.
TimingPolicy timing_policy(const Arguments& args) {
  TimingPolicy policy;
  if (args.flag("--min-time")) policy.min_time = parse_positive("--min-time", args.value("--min-time"));
  if (args.flag("--repetitions"))
    policy.min_repetitions = static_cast<int>(parse_integer("--repetitions", args.value("--repetitions"), 1, 100000));
  policy.max_repetitions = std::max(policy.max_repetitions, policy.min_repetitions);
  if (args.flag("--time-budget")) policy.time_budget = parse_positive("--time-budget", args.value("--time-budget"));
  policy.derive_cheap_transfers = !args.flag("--round-trips");
  return policy;
}

// What `ladder run` is asked to time: one request per exercise, and per
// value of --sweep K=V1,V2,... in the order given. Bad sizes, parameters
// and cases too large for this machine are refused here, before any work.
std::vector<RunRequest> run_requests(const Arguments& args) {
  const std::uint64_t seed = args.flag("--seed") ? parse_integer("--seed", args.value("--seed"), 0, 1L << 62) : 1;
  const Params overrides = parameter_overrides(args);
  const MemoryLimit memory_limit = host_memory_limit();
  std::string sweep_name;
  std::vector<std::string> sweep_values = {""};
  if (args.flag("--sweep")) {
    auto [name, values] = split_assignment(args.value("--sweep"), "--sweep");
    sweep_name = name;
    sweep_values = split_list(values);
    if (sweep_values.empty()) throw UsageError("--sweep " + name + "= names no values");
  }
  if (sweep_name == "ranks") throw UsageError("--sweep ranks=... is run apart (run_over_ranks)");
  std::vector<RunRequest> requests;
  for (const auto& exercise : args.positional.empty() ? exercise_names() : args.positional) {
    auto problem = make_problem(exercise);
    for (const auto& value : sweep_values) {
      Params swept = overrides;
      int threads = 0;
      if (sweep_name == "threads")
        threads = static_cast<int>(parse_integer("--sweep threads", value, 1, 4096));
      else if (!sweep_name.empty())
        swept.set(sweep_name, value);
      const auto rungs = chosen_rungs(*problem, split_list(args.value("--variants")));
      RunRequest request{exercise, args.value("--size", "workshop"), swept, rungs, seed, threads, checked_track(args)};
      refuse_unless_memory_suffices(*problem, problem->resolve(request.size, swept), memory_limit);
      requests.push_back(request);
    }
  }
  return requests;
}

std::string gigabytes_per_s(double bytes_per_s) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(1) << bytes_per_s / 1e9 << " GB/s";
  return text.str();
}

// The ceilings, measured once per run (or given), and printed: the
// "ceiling" column divides by them, and the task sheets ask for them.
Ceilings measure_ceilings(const Arguments& args, const RunOptions& options, const std::set<Backend>& backends) {
  Ceilings ceilings;
  ceilings.host_threads = openmp_threads();
  if (args.flag("--host-bandwidth")) {
    ceilings.host_bytes_per_s = parse_positive("--host-bandwidth", args.value("--host-bandwidth")) * 1e9;
  } else {
    std::cerr << "measuring host memory bandwidth (STREAM copy, add, triad)...\n";
    ceilings.host_measurement = measure_host_bandwidth();
    ceilings.host_bytes_per_s = ceilings.host_measurement.bytes_per_s;
    ceilings.host_scaling = measure_host_scaling();
    ceilings.host_fp32_operations_per_s = measure_host_fp32_rate();
  }
  std::cerr << "  host memory bandwidth: " << gigabytes_per_s(ceilings.host_bytes_per_s)
            << (ceilings.host_measurement.kernel.empty() ? " (given)" : " (" + ceilings.host_measurement.kernel + ")")
            << '\n';
  if (ceilings.host_fp32_operations_per_s > 0) {
    std::ostringstream text;
    text << std::fixed << std::setprecision(1) << "  host FP32 rate: " << ceilings.host_fp32_operations_per_s / 1e9
         << " GFLOP/s (multiply-adds in registers on every thread, the widest vector unit)\n";
    std::cerr << text.str();
  }
  if (const HostScaling& scaling = ceilings.host_scaling; scaling.threads > 1) {
    std::ostringstream text;
    text << std::fixed << std::setprecision(0) << "  host scaling, 1 to " << scaling.threads
         << " threads, per thread: clock " << 100 * scaling.clock_efficiency << " %, vector work "
         << 100 * scaling.compute_efficiency << " %; memory " << std::setprecision(1) << scaling.memory_speedup
         << "x one thread\n";
    std::cerr << text.str();
  }
  auto device_ceilings = [&](Backend backend, auto measure) -> std::optional<DeviceCeilings> {
    if (!backends.count(backend) || !backend_availability(backend, options).available) return std::nullopt;
    std::cerr << "measuring " << backend_name(backend) << " device ceilings (bandwidth; FP32 rate on CUDA)...\n";
    DeviceCeilings measured = measure(options);
    if (args.flag("--device-bandwidth"))
      measured.copy_bytes_per_s = parse_positive("--device-bandwidth", args.value("--device-bandwidth")) * 1e9;
    std::cerr << "  " << backend_name(backend) << " device copy bandwidth: "
              << (measured.copy_bytes_per_s > 0 ? gigabytes_per_s(measured.copy_bytes_per_s) : "not measured");
    if (measured.host_to_device_pinned > 0)
      std::cerr << "; PCIe (pinned) " << gigabytes_per_s(measured.host_to_device_pinned) << " up, "
                << gigabytes_per_s(measured.device_to_host_pinned) << " down";
    if (measured.both_directions_pinned > 0)
      std::cerr << ", " << gigabytes_per_s(measured.both_directions_pinned) << " both ways at once";
    if (measured.fp32_operations_per_s > 0) {
      std::ostringstream rate;
      rate << std::fixed << std::setprecision(1) << measured.fp32_operations_per_s * 1e-12;
      std::cerr << "; FP32 " << rate.str() << " TFLOP/s";
    }
    std::cerr << '\n';
    return measured;
  };
  ceilings.cuda = device_ceilings(Backend::cuda, measure_cuda_ceilings);
  ceilings.opencl = device_ceilings(Backend::opencl, measure_opencl_ceilings);
  if (ceilings.cuda && ceilings.opencl && !args.flag("--device-bandwidth") &&
      adopt_cuda_bandwidth_of_the_same_gpu(*ceilings.opencl, *ceilings.cuda))
    std::cerr << "  opencl device copy bandwidth: " << gigabytes_per_s(ceilings.opencl->copy_bytes_per_s)
              << ", CUDA's probe of the same GPU\n";
  return ceilings;
}

// In a job of several ranks that times distributed rungs: what a message
// costs against its size, through MPI and (for cuda_nccl rungs, on GPUs)
// NCCL, for the report's model of how the rungs scale; printed in brief.
nlohmann::json measure_network(const std::vector<RunRequest>& requests, const RunOptions& options) {
  bool distributed = false, nccl = false;
  for (const auto& request : requests)
    for (const auto& rung : request.variants) {
      distributed |= shares_work_among_ranks(rung);
      // NCCL's probe only where its rung can run: a GPU for each rank.
      nccl |= has_gpu_per_rank(rung) && rung_availability(request.exercise, rung, request.track, options).available;
    }
  if (!distributed || mpi_job_ranks() == 1) return nullptr;
  std::cerr << "measuring communication between the " << mpi_job_ranks() << " ranks (exchange, allreduce, reduce; MPI"
            << (nccl ? ", NCCL" : "") << ")...\n";
  nlohmann::json measured = measure_communication(nccl);
  for (const auto& backend : measured) {
    std::cerr << "  " << backend["backend"].get<std::string>() << ":";
    const char* separator = "";
    for (const char* operation : {"exchange", "allreduce", "reduce"}) {
      const auto& points = backend[operation];
      std::cerr << separator << ' ' << operation;
      separator = ";";
      if (points.empty()) {  // its first size already took over 0.1 s
        std::cerr << ": no size measured";
        continue;
      }
      const auto& last = points.back();
      std::cerr << ' ' << format_time(points.front()[1]) << " (4 B) to " << format_time(last[1]) << " ("
                << last[0].get<double>() / (1 << 20) << " MiB, "
                << gigabytes_per_s(last[0].get<double>() / last[1].get<double>()) << ')';
    }
    std::cerr << '\n';
  }
  return measured;
}

// The timing policy `ladder pace --policy JSON` is given: the keys a run
// records as context.timing_policy (run_context()), every one but
// max_batches and derived_transfers required (a peer has no transfer figure:
// the latter is ignored), no other; UsageError naming the first bad one.
TimingPolicy policy_from_json(const std::string& text) {
  const nlohmann::json policy = nlohmann::json::parse(text, nullptr, false);
  if (!policy.is_object()) throw UsageError("--policy " + text + ": expected a JSON object (context.timing_policy)");
  const std::set<std::string> keys = {"min_time_s",    "min_repetitions", "max_repetitions",  "noise_target",
                                      "time_budget_s", "max_batches",     "derived_transfers"};
  for (const auto& [key, value] : policy.items())
    if (!keys.count(key))
      throw UsageError("--policy: unknown key \"" + key +
                       "\" (accepted: min_time_s, min_repetitions, max_repetitions, noise_target, time_budget_s, "
                       "max_batches, derived_transfers)");
  auto number = [&](const char* key, double least, bool above) {
    if (!policy.contains(key)) throw UsageError(std::string("--policy: \"") + key + "\" is missing");
    const auto& value = policy[key];
    if (!value.is_number() || !std::isfinite(value.get<double>()) ||
        (above ? !(value.get<double>() > least) : value.get<double>() < least))
      throw UsageError(std::string("--policy: \"") + key + "\": " + value.dump() + ", expected a number " +
                       (above ? "above " : "of at least ") + nlohmann::json(least).dump());
    return value.get<double>();
  };
  auto integer = [&](const char* key, long least) {
    const double value = number(key, static_cast<double>(least), false);
    if (!policy[key].is_number_integer() || value > 1e9)
      throw UsageError(std::string("--policy: \"") + key + "\": " + policy[key].dump() + ", expected an integer from " +
                       std::to_string(least) + " to 1000000000");
    return static_cast<int>(value);
  };
  TimingPolicy result;
  result.min_time = number("min_time_s", 0, false);
  result.min_repetitions = integer("min_repetitions", 1);
  result.max_repetitions = integer("max_repetitions", result.min_repetitions);
  result.noise_target = number("noise_target", 0, false);
  result.time_budget = number("time_budget_s", 0, true);
  // The cap on batches is the harness's own constant, recorded by runs that say it.
  if (policy.contains("max_batches") && integer("max_batches", 1) != TimingPolicy::kMaxBatches)
    throw UsageError("--policy: \"max_batches\": " + policy["max_batches"].dump() + ", this ladder stops at " +
                     std::to_string(TimingPolicy::kMaxBatches) + " batches (TimingPolicy::kMaxBatches)");
  return result;
}

// A run handed in to the class folder, one file per exercise, in the rows
// the board reads (the check's): each rung's verdict and words, its
// compute median and its fraction of this machine's ceiling, the checksums
// of its files, and the seeds its cases were drawn with. A time above
// 1.5 times a bandwidth ceiling is handed in as implausible. A failure to write
// is said, and changes nothing else.
constexpr double kImplausibleFraction = 1.5;  // the ceilings' probes and the caches leave some room
void hand_in_run(const ClassFolder& to, const Arguments& args, const nlohmann::json& results) {
  static const std::map<std::string, std::string> verdicts = {
      {"ok", "pass"}, {"failed", "fail"}, {"skipped", "skipped"}, {"not_implemented", "not_implemented"}};
  for (const auto& entry : results) {
    const std::string exercise = entry["exercise"];
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& rung : entry["rungs"]) {
      const std::string name = rung["rung"];
      nlohmann::json row = {{"rung", name},
                            {"verdict", verdicts.at(rung["status"].get<std::string>())},
                            {"text", rung.value("reason", std::string("passed, then timed"))},
                            {"sources", rung_sources(exercise, name)}};
      if (rung["status"] == "ok") {
        const auto& timings = rung["timings"];
        row["compute_s"] = timings["compute"]["median_s"];
        if (timings.contains("fraction_of_ceiling") && timings["fraction_of_ceiling"]["compute"].is_number()) {
          const double fraction = timings["fraction_of_ceiling"]["compute"];
          const std::string ceiling = timings["fraction_of_ceiling"].value("ceiling", std::string());
          row["fraction_of_ceiling"] = {{"compute", fraction}, {"ceiling", ceiling}};
          // Faster than this machine's measured ceiling allows: never a record.
          // Judged against bandwidth only where it bounds every repetition: a
          // GPU's (its L2 emptied before each) or the host's probed at this
          // working set (one that fits in a cache is read from it, and an FP32
          // rate counts operations that a cleverer algorithm need not do).
          const bool bandwidth_bound = ceiling.find("bandwidth") != std::string::npos &&
                                       (rung.value("device_kind", std::string()) == "gpu" ||
                                        timings["fraction_of_ceiling"].contains("working_set_bytes"));
          if (bandwidth_bound && fraction > kImplausibleFraction) {
            std::ostringstream text;
            text << "implausible: " << std::setprecision(3) << fraction << "x this machine's " << ceiling
                 << " (the work's bytes or operations over the time): does compute() do its work every time?";
            row["verdict"] = "implausible";
            row["text"] = text.str();
            std::cout << "ladder: " << exercise << "'s " << name << " is handed in as " << text.str() << '\n';
          }
        }
      }
      rows.push_back(row);
    }
    nlohmann::json result = {{"kind", "ladder-hand-in"}, {"version", 1},
                             {"command", "run"},         {"exercise", exercise},
                             {"track", kExercisesTrack}, {"timed_size", entry["size"]},
                             {"seed", entry["seed"]},    {"context", hand_in_context(to, args)},
                             {"rungs", rows}};
    if (entry.contains("fresh_inputs_seed")) result["fresh_inputs_seed"] = entry["fresh_inputs_seed"];
    try {
      std::cout << "handed in: " << hand_in(to, exercise, "run", result).string() << '\n';
    } catch (const std::exception& error) {
      std::cerr << "ladder: not handed in: " << error.what() << "; your results are printed and written as always\n";
    }
  }
}

}  // namespace

// `ladder pace --policy JSON`: measure() with the samples timed by the
// parent, over stdin and stdout. Each sample: "sample" out, one line back
// with its seconds. At the end: "done " and statistics_json() of the kept
// samples. Anything else the process prints goes to stderr, so that stdout
// carries the protocol alone.
int command_pace(const Arguments& args) {
  if (!args.positional.empty()) throw UsageError("ladder pace takes no operands, given '" + args.positional[0] + "'");
  if (!args.flag("--policy")) throw UsageError("ladder pace needs --policy JSON (a run's context.timing_policy)");
  const TimingPolicy policy = policy_from_json(args.value("--policy"));
  std::cout.flush();
  FILE* protocol = fdopen(dup(STDOUT_FILENO), "w");
  if (protocol == nullptr || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
    throw std::runtime_error("pace: cannot set stdout apart for the protocol");
  std::string refused;  // what the parent sent that is not a sample's seconds
  auto sample = [&] {
    std::fputs("sample\n", protocol);
    std::fflush(protocol);
    std::string line;
    if (!std::getline(std::cin, line)) refused = "stdin ended before a sample's seconds came";
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    char* end = nullptr;
    const double seconds = refused.empty() ? std::strtod(line.c_str(), &end) : 0;
    if (refused.empty() && (line.empty() || *end != '\0' || !std::isfinite(seconds) || seconds < 0))
      refused = "expected a sample's seconds (a number of at least 0), got '" + line + "'";
    if (!refused.empty()) throw UsageError("pace: " + refused);
    return seconds;
  };
  nlohmann::json batches;  // Google Benchmark's records: not wanted here
  Statistics statistics;
  try {
    statistics = measure("pace", policy, sample, batches);
  } catch (const std::exception&) {
    if (!refused.empty()) throw UsageError("pace: " + refused);  // measure() reports it as a device's error
    throw;
  }
  std::fprintf(protocol, "done %s\n", statistics_json(statistics).dump().c_str());
  return std::fclose(protocol) == 0 ? 0 : 4;
}

int command_run(const Arguments& args) {
  RunOptions options = run_options(args);
  const TimingPolicy policy = timing_policy(args);
  const std::string out = args.value("--out", "ladder-results.json");
  const int replicates = args.flag("--replicates")
                             ? static_cast<int>(parse_integer("--replicates", args.value("--replicates"), 1, 100))
                             : 1;
  if (args.flag("--sweep")) {
    const auto [name, values] = split_assignment(args.value("--sweep"), "--sweep");
    if (name == "ranks") return run_over_ranks(args, values, out);
  }
  if (args.flag("--weak"))
    throw UsageError("--weak grows each exercise's input with the ranks: give it with --sweep ranks=V1,V2,...");
  std::vector<RunRequest> requests = run_requests(args);
  // Handing in: the participant's run, on cases no one knew before it
  // started, each rung checked again on fresh inputs after its timing.
  // (LADDER_CLASS_FOLDER alone hands in the exercises track only.)
  std::string cannot_hand_in;
  std::optional<ClassFolder> class_folder_to;
  if (args.flag("--class-folder") || checked_track(args) == kExercisesTrack)
    class_folder_to = class_folder(args, checked_track(args), cannot_hand_in);
  if (class_folder_to && !cannot_hand_in.empty())
    std::cerr << "ladder: not handing in: " << cannot_hand_in << "; your results are printed and written as always\n";
  options.fresh_inputs = args.flag("--fresh-inputs") || class_folder_to.has_value();
  if (class_folder_to && !args.flag("--seed")) {
    const std::uint64_t seed = drawn_seed();
    for (auto& request : requests) request.seed = seed, request.seed_drawn = true;
  }

  // A device named on the command line must be there before any work starts.
  std::set<Backend> backends;
  for (const auto& request : requests)
    for (const auto& rung : request.variants) backends.insert(backend_of(rung));
  for (Backend backend : backends) backend_availability(backend, options);
  // A rung with a GPU for each rank, named with --variants, where this
  // machine has more ranks than GPUs: refused before anything runs. (Not
  // named, it is skipped with the same reason, and the mpi rungs run.)
  for (const auto& rung : split_list(args.value("--variants")))
    for (const auto& request : requests)
      if (has_gpu_per_rank(rung) && backend_availability(Backend::cuda, options).available)
        if (const Availability gpus = rung_availability(request.exercise, rung, request.track, options);
            gpus.reason.rfind("needs a GPU for each", 0) == 0)
          throw UsageError(request.exercise + "'s " + rung + " rung " + gpus.reason +
                           ": run it with at most as many ranks as GPUs (--ranks), or leave it out of --variants");

  // A reference run starts on an idle machine: say so when it does not.
  RunReadings readings;
  readings.load_before = read_host_load();
  readings.ticks_before = read_cpu_ticks();
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (readings.load_before.one_minute > cores)
    std::cerr << "warning: the machine is loaded (load average " << readings.load_before.one_minute << " on " << cores
              << " hardware threads): timings will be slow and noisy, and this is not a reference run\n";
  Ceilings ceilings = measure_ceilings(args, options, backends);
  ceilings.communication = measure_network(requests, options);

  Harness harness(options, policy, ceilings, std::cout);
  bool any_failed = false;
  // Replicates interleaved: every request once, then every request again,
  // so that a drift of the machine during the run shows up as spread.
  std::vector<std::vector<nlohmann::json>> passes(requests.size());
  for (int replicate = 1; replicate <= replicates; ++replicate) {
    if (replicates > 1) std::cout << "== replicate " << replicate << " of " << replicates << '\n';
    readings.probes.push_back(probe_machine());
    for (std::size_t i = 0; i < requests.size(); ++i) passes[i].push_back(harness.run(requests[i], any_failed));
  }
  nlohmann::json results = nlohmann::json::array();
  for (const auto& entry_passes : passes) results.push_back(merge_replicates(entry_passes));
  for (auto& entry : results) entry["ranks"] = mpi_job_ranks();  // 1 outside mpirun
  if (replicates > 1) print_replicate_spreads(results);

  readings.probes.push_back(probe_machine());
  readings.ticks_after = read_cpu_ticks();
  readings.load_after = read_host_load();
  if (readings.load_after.one_minute > cores + 1)
    std::cerr << "warning: the machine was loaded during the run (load average " << readings.load_after.one_minute
              << " on " << cores << " hardware threads at the end)\n";
  nlohmann::json document = {{"schema_version", kSchemaVersion},
                             {"context", run_context(options, policy, ceilings, args.command_line, readings)},
                             {"results", results}};
  write_file_atomically(out, document.dump(1) + "\n");
  if (any_derived_transfer(results))
    std::cout << "~ transfer: compute + upload + download, timed apart (a CPU rung whose copies are under 1 % of\n"
                 "  its compute); --round-trips times them as round trips\n";
  std::cout << "results: " << out << '\n';
  if (class_folder_to && cannot_hand_in.empty()) hand_in_run(*class_folder_to, args, results);
  if (any_failed) std::cerr << "ladder: at least one rung failed its check (see above)\n";
  return any_failed ? 1 : 0;
}

}  // namespace ladder::cli
