// ladder: the one program of hpc-ladder (docs/design.md, "The command line").
// Errors are caught here and turned into one message and an exit status:
// 1 a rung failed its check, 2 bad usage or input, 3 a device failed.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "ladder/backends.hpp"
#include "ladder/error.hpp"
#include "ladder/fits.hpp"
#include "ladder/harness.hpp"
#include "ladder/kernels.hpp"
#include "ladder/memory.hpp"
#include "ladder/npy.hpp"
#include "ladder/suggest.hpp"

namespace ladder {
namespace {

// The command line as parsed (parse(), below the commands): the command,
// the words that are not options, and each option's values in order.
struct Arguments {
  std::string command;
  std::vector<std::string> positional;
  std::map<std::string, std::vector<std::string>> options;
  std::string command_line;  // as typed, for the results' context

  bool flag(const std::string& name) const { return options.count(name) != 0; }
  std::string value(const std::string& name, const std::string& fallback = "") const {
    auto it = options.find(name);
    return it == options.end() ? fallback : it->second.back();
  }
  std::vector<std::string> values(const std::string& name) const {
    auto it = options.find(name);
    return it == options.end() ? std::vector<std::string>{} : it->second;
  }
};

long parse_integer(const std::string& option, const std::string& text, long min, long max) {
  char* end = nullptr;
  long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value < min || value > max)
    throw UsageError(option + " " + text + ": expected an integer from " + std::to_string(min) + " to " +
                     std::to_string(max));
  return value;
}

double parse_positive(const std::string& option, const std::string& text) {
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(value > 0))
    throw UsageError(option + " " + text + ": expected a positive number");
  return value;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) items.push_back(item);
  return items;
}

RunOptions run_options(const Arguments& args) {
  RunOptions options;
  options.pinned = args.flag("--pinned");
  options.warm = args.flag("--warm");
  options.evict_by_writing = args.flag("--evict-by-writing");
  if (options.warm && options.evict_by_writing)
    throw UsageError("--warm and --evict-by-writing: --warm evicts nothing, so there is nothing to write");
  if (args.flag("--threads")) options.threads = parse_integer("--threads", args.value("--threads"), 1, 4096);
  if (args.flag("--cuda-device"))
    options.cuda_device = parse_integer("--cuda-device", args.value("--cuda-device"), 0, 1024);
  options.opencl_device = args.value("--opencl-device");
#ifdef _OPENMP
  if (options.threads > 0) omp_set_num_threads(options.threads);
#endif
  return options;
}

Params parameter_overrides(const Arguments& args) {
  Params overrides;
  for (const auto& text : args.values("--param")) {
    auto [key, value] = split_assignment(text, "--param");
    overrides.set(key, value);
  }
  return overrides;
}

// "vector_add at n=1000003", for messages about one case.
std::string case_text(const Problem& problem, const Params& params) {
  std::string text = problem.name() + " at";
  const char* separator = " ";
  for (const auto& [key, value] : params.values()) text += separator + key + "=" + value, separator = ", ";
  return text;
}

// The memory check before a generated case is allocated (run, check,
// generate): one message naming both figures where it would not fit.
void refuse_unless_memory_suffices(const Problem& problem, const Params& params, const MemoryLimit& limit) {
  refuse_unless_memory_suffices(problem.host_bytes(problem.input_shapes(params), params), limit,
                                case_text(problem, params), "try a smaller --size or --param");
}

int command_list(const Arguments& args) {
  RunOptions options = run_options(args);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();  // sizes in the problem's order
  for (const auto& name : exercise_names()) {
    auto problem = make_problem(name);
    nlohmann::ordered_json rungs = nlohmann::ordered_json::array();
    for (const auto& rung : ladder_rungs(*problem)) {
      const RungEntry* entry = find_rung(name, rung);
      Backend backend = entry ? entry->backend : backend_of(rung);
      Availability availability = rung_availability(name, rung, kSolutionsTrack, options);
      rungs.push_back({{"name", rung},
                       {"backend", backend_name(backend)},
                       {"built", entry != nullptr},
                       {"runs_here", availability.available},
                       {"reason", availability.reason}});
    }
    nlohmann::ordered_json sizes = nlohmann::ordered_json::object();
    for (const auto& preset : problem->sizes()) sizes[preset.name] = preset.values;
    nlohmann::ordered_json params = nlohmann::ordered_json::array();
    for (const auto& spec : problem->params()) {
      nlohmann::ordered_json param = {{"name", spec.name}, {"description", spec.description}};
      if (spec.choices.empty())
        param["min"] = spec.min, param["max"] = spec.max;
      else
        param["choices"] = spec.choices;
      params.push_back(param);
    }
    nlohmann::ordered_json inputs = nlohmann::ordered_json::array();
    for (const auto& input : problem->inputs()) inputs.push_back({{"name", input.name}, {"accepted", input.accepted}});
    list.push_back({{"exercise", name},
                    {"summary", problem->summary()},
                    {"rungs", rungs},
                    {"sizes", sizes},
                    {"parameters", params},
                    {"inputs", inputs}});
  }
  if (args.flag("--json")) {
    std::cout << list.dump(2) << '\n';
    return 0;
  }
  for (const auto& exercise : list) {
    std::cout << exercise["exercise"].get<std::string>() << ": " << exercise["summary"].get<std::string>() << '\n';
    std::cout << "  sizes:";
    for (const auto& [size, values] : exercise["sizes"].items()) {
      std::cout << ' ' << size << " (";
      bool first = true;
      for (const auto& [key, value] : values.items())
        std::cout << (first ? "" : ", ") << key << '=' << value.get<std::string>(), first = false;
      std::cout << ')';
    }
    std::cout << '\n';
    for (const auto& rung : exercise["rungs"]) {
      std::cout << "  " << std::left << std::setw(16) << rung["name"].get<std::string>() << std::setw(8)
                << rung["backend"].get<std::string>()
                << (rung["runs_here"].get<bool>() ? "runs here"
                                                  : "cannot run here: " + rung["reason"].get<std::string>())
                << '\n';
    }
  }
  return 0;
}

int command_devices(const Arguments& args) {
  nlohmann::json devices = {{"cuda", cuda_devices()}, {"opencl", opencl_devices()}};
  if (args.flag("--json")) {
    std::cout << devices.dump(2) << '\n';
    return 0;
  }
  std::cout << "CUDA devices:" << (devices["cuda"].empty() ? " none (" + cuda_availability({}).reason + ")" : "")
            << '\n';
  for (const auto& d : devices["cuda"])
    std::cout << "  " << d["index"] << ": " << d["name"].get<std::string>() << " (compute capability "
              << d["compute_capability"].get<std::string>() << ", " << d["multiprocessors"] << " SMs, "
              << d["global_memory_bytes"].get<double>() / (1 << 30) << " GiB)\n";
  std::cout << "OpenCL devices:" << (devices["opencl"].empty() ? " none" : "") << '\n';
  for (const auto& d : devices["opencl"])
    std::cout << "  " << d["id"].get<std::string>() << ": " << d["name"].get<std::string>() << " ["
              << d["type"].get<std::string>() << ", " << d["platform"].get<std::string>() << ", "
              << d["version"].get<std::string>() << "]\n";
  return 0;
}

std::string checked_track(const Arguments& args) {
  std::string track = args.value("--track", kSolutionsTrack);
  if (track != kSolutionsTrack && track != kExercisesTrack)
    throw UsageError("--track " + track + ": accepted: solutions, exercises");
  return track;
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

// --min-time, --repetitions and --time-budget over the defaults.
TimingPolicy timing_policy(const Arguments& args) {
  TimingPolicy policy;
  if (args.flag("--min-time")) policy.min_time = parse_positive("--min-time", args.value("--min-time"));
  if (args.flag("--repetitions"))
    policy.min_repetitions = static_cast<int>(parse_integer("--repetitions", args.value("--repetitions"), 1, 100000));
  policy.max_repetitions = std::max(policy.max_repetitions, policy.min_repetitions);
  if (args.flag("--time-budget")) policy.time_budget = parse_positive("--time-budget", args.value("--time-budget"));
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
  return ceilings;
}

int command_run(const Arguments& args) {
  const RunOptions options = run_options(args);
  const TimingPolicy policy = timing_policy(args);
  const std::string out = args.value("--out", "ladder-results.json");
  const int replicates = args.flag("--replicates")
                             ? static_cast<int>(parse_integer("--replicates", args.value("--replicates"), 1, 100))
                             : 1;
  const std::vector<RunRequest> requests = run_requests(args);

  // A device named on the command line must be there before any work starts.
  std::set<Backend> backends;
  for (const auto& request : requests)
    for (const auto& rung : request.variants) backends.insert(backend_of(rung));
  for (Backend backend : backends) backend_availability(backend, options);

  // A reference run starts on an idle machine: say so when it does not.
  RunReadings readings;
  readings.load_before = read_host_load();
  readings.ticks_before = read_cpu_ticks();
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (readings.load_before.one_minute > cores)
    std::cerr << "warning: the machine is loaded (load average " << readings.load_before.one_minute << " on " << cores
              << " hardware threads): timings will be slow and noisy, and this is not a reference run\n";
  const Ceilings ceilings = measure_ceilings(args, options, backends);

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
  std::cout << "results: " << out << '\n';
  if (any_failed) std::cerr << "ladder: at least one rung failed its check (see above)\n";
  return any_failed ? 1 : 0;
}

constexpr double kCheckCaseBudget = 10;  // seconds a rung may be predicted to take on one check case

// Median compute time of each rung that ran, from a quick run of the harness.
std::map<std::string, double> quick_times(const std::string& exercise, const std::string& size,
                                          const std::vector<std::string>& rungs, const std::string& track,
                                          const RunOptions& options) {
  TimingPolicy policy;
  policy.min_time = 0.05;
  policy.min_repetitions = 3;
  policy.time_budget = kCheckCaseBudget;
  std::ostringstream quiet;
  Harness harness(options, policy, Ceilings{}, quiet);
  bool failed = false;
  RunRequest request{exercise, size, {}, rungs, 1, 0, track};
  nlohmann::json result = harness.run(request, failed);
  std::map<std::string, double> times;
  for (const auto& row : result["rungs"])
    if (row["status"] == "ok") times[row["rung"]] = row["timings"]["compute"]["median_s"].get<double>();
  return times;
}

// One rung's line in `ladder check`: what it came to, and the words after its name.
struct CheckVerdict {
  enum Kind { pass, fail, not_implemented, skipped, no_skeleton } kind;
  std::string text;
};

// `ladder check` runs each OpenCL rung's check in a child `ladder check`
// (check_in_child), under Oclgrind with --race. kCheckVerdict, set for the
// child, names the file it writes its one rung's verdict to, and makes it
// time nothing and announce each case on stderr first, so that a crash or
// one of Oclgrind's reports can name its case. kSimulatedCheck makes it run
// the problem's small simulator_cases(), each computed once.
constexpr const char* kCheckVerdict = "LADDER_CHECK_VERDICT";
constexpr const char* kSimulatedCheck = "LADDER_CHECK_SIMULATED";
constexpr const char* kCaseAnnouncement = "ladder: case ";

const std::vector<std::pair<CheckVerdict::Kind, std::string>> kVerdictNames = {
    {CheckVerdict::pass, "pass"},
    {CheckVerdict::fail, "fail"},
    {CheckVerdict::not_implemented, "not_implemented"},
    {CheckVerdict::skipped, "skipped"},
    {CheckVerdict::no_skeleton, "no_skeleton"}};

void write_verdict(const std::string& path, const CheckVerdict& verdict) {
  for (const auto& [kind, name] : kVerdictNames)
    if (kind == verdict.kind) write_file_atomically(path, name + "\n" + verdict.text);
}

std::optional<CheckVerdict> read_verdict(const std::string& path) {
  std::ifstream in(path);
  std::string name, text;
  if (!std::getline(in, name)) return std::nullopt;
  std::getline(in, text, '\0');
  for (const auto& [kind, known] : kVerdictNames)
    if (known == name) return CheckVerdict{kind, text};
  return std::nullopt;
}

// A rung run on every check case (each with its own seed, i + 1) until the
// first failure, compared with the reference; a write past the end of an
// output fails it too. With `announce`, each case is named on stderr first;
// `simulated` (under Oclgrind), each is computed once, not twice.
CheckVerdict check_rung(const Problem& problem, const std::string& rung, const std::string& track,
                        const std::vector<Params>& cases, const RunOptions& options, bool announce, bool simulated) {
  const RungEntry* entry = find_rung(problem.name(), rung, track);
  // A solution's extra rung (cuda_fft, opencl_trial, ...) is not part of the exercise.
  if (!entry && track == kExercisesTrack && find_rung(problem.name(), rung, kSolutionsTrack))
    return {CheckVerdict::no_skeleton, "no skeleton (a solution rung only, not part of the exercise)"};
  const Availability availability = rung_availability(problem.name(), rung, track, options);
  if (!availability.available) return {CheckVerdict::skipped, "skipped (" + availability.reason + ")"};

  std::size_t skipped_cases = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    Params params = problem.resolve("tiny", cases[i]);
    // A check is quick: a case this rung would take long on (naive primes
    // at 10^7) is left out, and the line says so.
    if (auto prediction = problem.predict(rung, params); prediction && prediction->seconds > kCheckCaseBudget) {
      ++skipped_cases;
      continue;
    }
    // The case and its seed, and the run that shows the same input again.
    std::string where, again;
    for (const auto& [key, value] : params.values())
      where += " " + key + "=" + value, again += " --param " + key + "=" + value;
    const std::string seed = std::to_string(i + 1);
    if (announce) std::cerr << kCaseAnnouncement << where.substr(1) << " seed=" << seed << std::endl;
    Arrays inputs = problem.generate(params, i + 1);
    std::string failure;
    try {
      CheckResult result = problem.check(run_once(*entry, inputs, params, options, problem, simulated ? 1 : 2),
                                         problem.reference(inputs, params));
      if (!result.ok) failure = result.detail;
    } catch (const NotImplemented& error) {
      return {CheckVerdict::not_implemented, "not implemented (" + std::string(error.what()) + ")"};
    } catch (const DeviceError& error) {
      failure = error.what();
    } catch (const OutOfBounds& error) {
      failure = error.what();
    }
    if (!failure.empty())
      return {CheckVerdict::fail, "FAIL case" + where + " seed=" + seed + ": " + failure + " (again: ladder run " +
                                      problem.name() + " --variants " + rung +
                                      (track == kExercisesTrack ? " --track exercises" : "") + again + " --seed " +
                                      seed + ")"};
  }
  std::string text = "pass (" + std::to_string(cases.size() - skipped_cases) + " inputs";
  if (skipped_cases > 0)
    text += "; " + std::to_string(skipped_cases) + " left out, predicted over " +
            std::to_string(static_cast<int>(kCheckCaseBudget)) + " s each";
  return {CheckVerdict::pass, text + ")"};
}

// The check's last line; its exit status: 1 where a rung failed.
int print_summary(std::map<CheckVerdict::Kind, int> counts) {
  const int no_skeleton = counts[CheckVerdict::no_skeleton];
  std::cout << counts[CheckVerdict::pass] << " passed, " << counts[CheckVerdict::fail] << " failed, "
            << counts[CheckVerdict::not_implemented] << " not implemented, " << counts[CheckVerdict::skipped]
            << " skipped" << (no_skeleton ? ", " + std::to_string(no_skeleton) + " without skeleton" : "") << '\n';
  return counts[CheckVerdict::fail] ? 1 : 0;
}

// One of Oclgrind's reports: a line that says what it found, then indented
// lines with the kernel, the work-item and, where it knows it, the source
// line ("At line 17 (column 9) of kernels/histogram/histogram.cl:").
struct OclgrindReport {
  std::string headline;  // "Read-write data race at local memory address 0x1000000000010"
  std::string file, line, source;
  std::string case_text;  // the check case it came in, as the child announced it
  std::string text;       // the whole report
  std::string cause() const {
    if (std::regex_search(headline, std::regex("data race", std::regex::icase))) return "race";
    if (std::regex_search(headline, std::regex("invalid|exceeds|out of bounds", std::regex::icase)))
      return "out of bounds";
    return "FAIL";
  }
  std::string where() const { return file.empty() ? "" : file + " line " + line + ": " + source; }
};

// Line `line` (from 1) of a kernel file as a report names it: the file, or
// for the solutions' kernels the source embedded from kernels/. Oclgrind's
// own copy of the line is one off: it counts the "#line" that
// opencl_program_source puts first.
std::string kernel_line(const std::string& file, std::size_t line) {
  std::istringstream embedded;
  std::ifstream on_disk(file);
  std::istream* in = &on_disk;
  if (!on_disk && file.rfind("kernels/", 0) == 0)
    for (const auto& kernel : embedded_kernels())
      if (file.substr(8) == kernel.path) embedded.str(kernel.source), in = &embedded;
  std::string text;
  for (std::size_t i = 0; i < line && std::getline(*in, text);) ++i;
  if (!*in) return "";
  const auto start = text.find_first_not_of(" \t");
  return start == std::string::npos ? "" : text.substr(start);
}

// The reports in what a child wrote to stderr, in order, each with the case
// announced before it. Reports are blocks: a headline, then tab-indented lines.
std::vector<OclgrindReport> oclgrind_reports(const std::vector<std::string>& lines) {
  std::vector<OclgrindReport> reports;
  const std::regex location(R"(At line (\d+) (?:\(column \d+\) )?of (.+):\s*$)");
  std::string case_text;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind(kCaseAnnouncement, 0) == 0) {
      case_text = lines[i].substr(std::strlen(kCaseAnnouncement));
      continue;
    }
    if (lines[i].empty() || lines[i][0] == '\t' || lines[i][0] == ' ') continue;
    if (i + 1 >= lines.size() || lines[i + 1].empty() || lines[i + 1][0] != '\t') continue;
    OclgrindReport report{lines[i], "", "", "", case_text, lines[i] + '\n'};
    std::string source;  // of the last location, to print in place of Oclgrind's line after it
    for (++i; i < lines.size() && !lines[i].empty() && lines[i][0] == '\t'; ++i) {
      std::smatch match;
      if (!source.empty()) {
        report.text += "\t  " + source + '\n';
        source.clear();
        continue;
      }
      report.text += lines[i] + '\n';
      if (std::regex_search(lines[i], match, location)) {
        source = kernel_line(match[2], std::stoul(match[1]));
        if (report.file.empty()) report.line = match[1], report.file = match[2], report.source = source;
      }
    }
    --i;
    reports.push_back(std::move(report));
  }
  return reports;
}

std::string quoted(const std::string& word) { return "'" + std::regex_replace(word, std::regex("'"), "'\\''") + "'"; }

// A scratch folder for the children's verdicts and output, removed at the end.
struct ScratchFolder {
  std::filesystem::path path = std::filesystem::temp_directory_path() / ("ladder-check-" + std::to_string(getpid()));
  ScratchFolder() { std::filesystem::create_directories(path); }
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

// What a child `ladder check` of one rung left: its verdict where it wrote
// one, its exit status, and its output (stdout and stderr, with the case
// announcements and any report of Oclgrind's).
struct ChildCheck {
  std::optional<CheckVerdict> verdict;
  int status = 0;
  std::vector<std::string> lines;
  // The case announced last: the one it was on when it ended.
  std::string last_case() const {
    for (auto line = lines.rbegin(); line != lines.rend(); ++line)
      if (line->rfind(kCaseAnnouncement, 0) == 0) return line->substr(std::strlen(kCaseAnnouncement));
    return "";
  }
  // Where it ended without a verdict (a crash, a heap that PoCL's runtime
  // found corrupt): a FAIL naming the case, the signal and its last words.
  CheckVerdict crash_verdict(const std::string& where) const {
    std::string last;
    for (std::size_t i = lines.size() > 6 ? lines.size() - 6 : 0; i < lines.size(); ++i)
      if (lines[i].rfind(kCaseAnnouncement, 0) != 0) last += "\n      " + lines[i];
    const int code = WEXITSTATUS(status);  // the shell's: 128 + N for signal N
    const std::string how = code > 128
                                ? "killed by signal " + std::to_string(code - 128) + " (" + strsignal(code - 128) +
                                      "): a kernel that writes outside its buffers corrupts the runtime's memory; "
                                      "is a bounds test missing?"
                                : "exit status " + std::to_string(code) + ".";
    return {CheckVerdict::fail, "FAIL case " + (last_case().empty() ? "(before the first)" : last_case()) +
                                    ": the check " + where + " ended without a verdict, " + how +
                                    " Its last words:" + last};
  }
};

// Runs `ladder check EXERCISE --variants RUNG` in a child process, after
// `wrapper` (e.g. "oclgrind --data-races "), simulated or not.
ChildCheck check_in_child(const Arguments& args, const std::string& exercise, const std::string& rung,
                          const std::string& track, const std::string& wrapper, bool simulated,
                          const std::filesystem::path& scratch) {
  const auto verdict_file = scratch / (rung + ".verdict"), output_file = scratch / (rung + ".txt");
  std::filesystem::remove(verdict_file);
  // Under mpirun (--ranks), the child is a process of its own, not one more
  // rank: without these two, start_mpi_rank() leaves MPI alone.
  std::string command = "env -u OMPI_COMM_WORLD_SIZE -u PMIX_RANK " + std::string(kCheckVerdict) + "=" +
                        quoted(verdict_file.string()) + " " + (simulated ? std::string(kSimulatedCheck) + "=1 " : "") +
                        wrapper + quoted(std::filesystem::read_symlink("/proc/self/exe").string()) + " check " +
                        exercise + " --variants " + rung + " --track " + track;
  for (const char* option : {"--threads", "--opencl-device"})
    if (args.flag(option)) command += std::string(" ") + option + " " + quoted(args.value(option));
  ChildCheck child;
  child.status = std::system((command + " > " + quoted(output_file.string()) + " 2>&1").c_str());
  if (WEXITSTATUS(child.status) == 128 + SIGINT) std::raise(SIGINT);  // Ctrl-C stops the whole check
  std::ifstream in(output_file);
  for (std::string line; std::getline(in, line);) child.lines.push_back(line);
  child.verdict = read_verdict(verdict_file.string());
  return child;
}

// `ladder check EXERCISE --race`: each chosen OpenCL rung of the track, on
// the problem's small simulator_cases(), in its own `ladder check` under
// Oclgrind (Debian's `oclgrind`), which simulates an OpenCL device,
// follows every work-item and reports two of them touching one address
// with no barrier or atomic between, reads and writes outside a buffer or
// an array, reads of values never written, and barriers not reached by the
// whole group. Nothing is timed. One verdict per rung: race, out of bounds,
// FAIL (a wrong value, or another report) or pass; each distinct report is
// printed once below the verdicts.
constexpr std::size_t kOclgrindMaxErrors = 20;  // reports, after which Oclgrind says no more

int check_for_races(const Arguments& args) {
  if (std::system("command -v oclgrind > /dev/null 2>&1") != 0)
    throw UsageError(
        "--race runs the OpenCL rungs on Oclgrind, which is not installed (Debian: apt-get install oclgrind)");
  const std::string track = checked_track(args);
  auto problem = make_problem(args.positional[0]);
  std::vector<std::string> rungs;
  for (const auto& rung : chosen_rungs(*problem, split_list(args.value("--variants"))))
    if (backend_of(rung) == Backend::opencl) rungs.push_back(rung);
  if (rungs.empty()) throw UsageError("--race checks OpenCL rungs, and none is chosen in " + problem->name());
  const auto cases = problem->simulator_cases();
  std::cout << problem->name() << ", " << track << " track"
            << (track == kExercisesTrack ? " (exercises/" + problem->name() + ")" : "") << ", on Oclgrind ("
            << cases.size() << " small cases; nothing timed):\n"
            << "PoCL runs a work-group's work-items one after another, so it cannot show a missing\n"
            << "atomic or barrier within a work-group; Oclgrind follows every work-item.\n"
            << std::flush;

  const ScratchFolder scratch;
  std::map<std::string, CheckVerdict> verdicts;
  std::map<std::string, std::vector<OclgrindReport>> distinct_reports;  // per rung, each (cause, place) once
  std::map<CheckVerdict::Kind, int> counts;
  for (const auto& rung : rungs) {
    // Oclgrind's check for uninitialised values stops at LLVM's `freeze`
    // instruction (Oclgrind 21.10: "Unsupported instruction: freeze"), which
    // the optimiser puts into many kernels; without optimisation the
    // simulation is up to 100 times slower. Such a kernel is checked again
    // without it, and the line says so.
    bool uninitialised_checked = true;
    ChildCheck child;
    for (bool with_uninitialised : {true, false}) {
      // 64 KiB of local memory, as on most GPUs (Oclgrind's own default, 32
      // KiB, is less than spot_finding's widest window needs).
      const std::string oclgrind = "oclgrind --data-races --check-api --max-errors " +
                                   std::to_string(kOclgrindMaxErrors) + " --local-mem-size 65536 " +
                                   (with_uninitialised ? "--uninitialized " : "");
      child = check_in_child(args, problem->name(), rung, track, oclgrind, true, scratch.path);
      const bool unsupported = std::any_of(child.lines.begin(), child.lines.end(), [](const std::string& line) {
        return line.find("Unsupported instruction") != std::string::npos;
      });
      if (!with_uninitialised || !unsupported) break;
      uninitialised_checked = false;
    }
    const auto reports = oclgrind_reports(child.lines);
    CheckVerdict verdict = child.verdict ? *child.verdict : child.crash_verdict("under Oclgrind");
    if (!reports.empty()) {
      // The verdict is the first report's: its cause, where, and in which case.
      const OclgrindReport& first = reports.front();
      std::string text = first.cause() + ": " + (first.file.empty() ? first.headline : first.where()) + " (" +
                         (first.file.empty() ? "" : first.headline + "; ") + "case " + first.case_text + "; " +
                         std::to_string(reports.size()) + (reports.size() >= kOclgrindMaxErrors ? " or more" : "") +
                         " report(s) from Oclgrind; each place once below)";
      if (verdict.kind == CheckVerdict::fail) text += "; the values: " + verdict.text;
      verdict = {CheckVerdict::fail, text};
      // Oclgrind reports a race once per pair of work-items: each cause and place once.
      std::set<std::string> seen;
      for (const auto& report : reports)
        if (seen.insert(report.cause() + " " + report.file + ":" + report.line).second)
          distinct_reports[rung].push_back(report);
    }
    if (!uninitialised_checked)
      verdict.text +=
          " [reads of uninitialised values not checked: Oclgrind cannot follow this kernel's optimised code]";
    ++counts[verdict.kind];
    verdicts[rung] = verdict;
  }

  for (const auto& rung : rungs) std::cout << "  " << std::left << std::setw(16) << rung << verdicts[rung].text << '\n';
  for (const auto& [rung, reports] : distinct_reports) {
    std::cout << "Oclgrind's reports for " << rung << ":\n";
    for (const auto& report : reports) std::cout << "in case " << report.case_text << ":\n" << report.text << '\n';
  }
  return print_summary(counts);
}

// The participant's passing rungs, timed beside the solution's. naive is
// given (given/<exercise>/naive.cpp, the same file in both tracks): timing
// it twice at the workshop size would only make every check slow.
void add_exercise_times(const Problem& problem, const std::string& size, std::vector<std::string> passing,
                        const RunOptions& options, std::map<std::string, CheckVerdict>& verdicts) {
  if (auto given = std::find(passing.begin(), passing.end(), "naive"); given != passing.end()) {
    verdicts["naive"].text += "; given, the solutions' own file (`ladder run` times it)";
    passing.erase(given);
  }
  if (passing.empty()) return;
  std::cerr << "timing the passing rungs at size " << size << "...\n";
  auto mine = quick_times(problem.name(), size, passing, kExercisesTrack, options);
  std::vector<std::string> solved;
  for (const auto& rung : passing)
    if (find_rung(problem.name(), rung, kSolutionsTrack)) solved.push_back(rung);
  auto theirs = quick_times(problem.name(), size, solved, kSolutionsTrack, options);
  for (const auto& rung : passing) {
    std::string& text = verdicts[rung].text;
    auto time = mine.find(rung);
    if (time == mine.end()) {
      text += "; not timed at size " + size + " (see `ladder run --track exercises`)";
      continue;
    }
    text += "; " + size + ": " + format_time(time->second);
    if (auto solution = theirs.find(rung); solution != theirs.end())
      text += " (solution: " + format_time(solution->second) + ")";
  }
}

// Correctness of every rung on the problem's check cases; with --track
// exercises, the participant's rungs, and for each that passes its time
// next to the solution's on this machine; with --race, check_for_races.
// Each OpenCL rung is checked in a child process (check_in_child), so that
// a kernel that crashes it is still reported as that rung's FAIL.
int command_check(const Arguments& args) {
  if (args.positional.size() != 1)
    throw UsageError("`ladder check` takes one exercise, e.g. `ladder check vector_add`");
  if (args.flag("--race")) return check_for_races(args);
  const std::string track = checked_track(args);
  const RunOptions options = run_options(args);
  auto problem = make_problem(args.positional[0]);
  const std::string size = args.value("--size", "workshop");
  const Params timed_params = problem->resolve(size, {});
  const auto rungs = chosen_rungs(*problem, split_list(args.value("--variants")));
  // A child of check_in_child: one rung, untimed, its verdict to a file;
  // under Oclgrind, on the problem's small cases.
  const char* verdict_file = std::getenv(kCheckVerdict);
  const bool child = verdict_file != nullptr && *verdict_file != '\0';
  const bool simulated = child && std::getenv(kSimulatedCheck) != nullptr;
  const auto cases = simulated ? problem->simulator_cases() : problem->check_cases();
  // Every case, and the size the exercises track times, must fit before any work.
  const MemoryLimit memory_limit = host_memory_limit();
  for (const auto& overrides : cases)
    refuse_unless_memory_suffices(*problem, problem->resolve("tiny", overrides), memory_limit);
  const bool timed = track == kExercisesTrack && !child;
  if (timed) refuse_unless_memory_suffices(*problem, timed_params, memory_limit);
  if (!child)  // (a child's words are its verdict file)
    std::cout << problem->name() << ", " << track << " track"
              << (track == kExercisesTrack ? " (exercises/" + problem->name() + ")" : "") << ":\n"
              << std::flush;

  std::map<std::string, CheckVerdict> verdicts;
  std::map<CheckVerdict::Kind, int> counts;
  std::vector<std::string> passing;
  const std::optional<ScratchFolder> scratch = child ? std::nullopt : std::make_optional<ScratchFolder>();
  for (const auto& rung : rungs) {
    CheckVerdict& verdict = verdicts[rung];
    if (child) {
      verdict = check_rung(*problem, rung, track, cases, options, true, simulated);
      write_verdict(verdict_file, verdict);
    } else if (backend_of(rung) == Backend::opencl) {
      // In a child of its own: a kernel that writes past its buffers can
      // corrupt PoCL's heap and abort the process, and this one reports it.
      const ChildCheck result = check_in_child(args, problem->name(), rung, track, "", false, scratch->path);
      verdict = result.verdict ? *result.verdict : result.crash_verdict("of " + rung);
    } else {
      verdict = check_rung(*problem, rung, track, cases, options, false, false);
    }
    ++counts[verdict.kind];
    if (verdict.kind == CheckVerdict::pass) passing.push_back(rung);
  }
  if (child) return 0;
  if (timed) add_exercise_times(*problem, size, passing, options, verdicts);

  for (const auto& rung : rungs) std::cout << "  " << std::left << std::setw(16) << rung << verdicts[rung].text << '\n';
  return print_summary(counts);
}

int command_solve(const Arguments& args) {
  if (args.positional.size() != 1)
    throw UsageError("`ladder solve` takes one exercise, e.g. `ladder solve vector_add`");
  auto problem = make_problem(args.positional[0]);
  std::string rung = args.value("--variant");
  if (rung.empty()) throw UsageError("`ladder solve` needs --variant RUNG (e.g. --variant serial)");
  chosen_rungs(*problem, {rung});  // refuses an unknown rung
  std::string output = args.value("--output");
  if (output.empty()) throw UsageError("`ladder solve` needs --output FILE.npy");
  RunOptions options = run_options(args);

  Params params = parameter_overrides(args);
  params.validate(problem->params(), problem->name());
  for (const auto& spec : problem->params())
    if (spec.generator_only && params.has(spec.name))
      throw UsageError("parameter " + spec.name +
                       " sets the size of generated inputs; `solve` takes it from the input files");

  std::string expected_names;
  for (const auto& input : problem->inputs()) expected_names += " " + input.name + "=FILE.npy";
  // The headers first: what the files hold decides whether the case fits in memory.
  std::map<std::string, std::string> paths;
  ArrayShapes shapes;
  std::string files;
  for (const auto& text : args.values("--input")) {
    auto [name, path] = split_assignment(text, "--input");
    bool known = false;
    for (const auto& input : problem->inputs()) known |= input.name == name;
    if (!known)
      throw UsageError("unknown input '" + name + "' for " + problem->name() + " (accepted:" + expected_names + ")");
    if (paths.count(name)) throw UsageError("input '" + name + "' given twice");
    paths[name] = path;
    shapes[name] = is_fits_path(path) ? read_fits_shape(path) : read_npy_shape(path);
    files += (files.empty() ? " on " : ", ") + path;
  }
  for (const auto& input : problem->inputs())
    if (!paths.count(input.name))
      throw UsageError("missing input '" + input.name + "' for " + problem->name() + " (expected:" + expected_names +
                       ")");
  refuse_unless_memory_suffices(problem->host_bytes(shapes, params), host_memory_limit(), problem->name() + files,
                                "try smaller inputs (e.g. a crop, or fewer frames) or --param values");
  Arrays inputs;
  for (const auto& [name, path] : paths) inputs[name] = is_fits_path(path) ? read_fits(path) : read_npy(path);
  problem->validate(inputs, params);
  problem->normalise(inputs);
  // The output must not replace one of the inputs (nor a directory, device or link).
  refuse_unless_replaceable(output);
  for (const auto& text : args.values("--input")) {
    std::error_code same_error;
    if (std::filesystem::equivalent(split_assignment(text, "--input").second, output, same_error))
      throw UsageError(output + ": is also an input of this command; give another output file");
  }

  const RungEntry* entry = find_rung(problem->name(), rung);
  if (entry == nullptr)  // a usage error: this build cannot have it (a missing device is run_once's device error)
    throw UsageError("rung " + rung + " of " + problem->name() +
                     " cannot run here: " + rung_availability(problem->name(), rung, kSolutionsTrack, options).reason);
  Arrays outputs = run_once(*entry, inputs, params, options, *problem);
  problem->save(output, outputs, inputs, params);
  return 0;
}

// The inputs a run would time, and the reference outputs, as .npy files:
// for peers (NumPy, CuPy) timed on the same bytes, and for participants.
int command_generate(const Arguments& args) {
  if (args.positional.size() != 1)
    throw UsageError("`ladder generate` takes one exercise, e.g. `ladder generate vector_add`");
  std::string directory = args.value("--out");
  if (directory.empty()) throw UsageError("`ladder generate` needs --out DIRECTORY");
  auto problem = make_problem(args.positional[0]);
  Params params = problem->resolve(args.value("--size", "workshop"), parameter_overrides(args));
  std::uint64_t seed = args.flag("--seed") ? parse_integer("--seed", args.value("--seed"), 0, 1L << 62) : 1;
  refuse_unless_memory_suffices(*problem, params, host_memory_limit());
  Arrays inputs = problem->generate(params, seed);
  Arrays expected = problem->reference(inputs, params);
  // All or nothing: the files are written into a sibling folder, then moved
  // into place (the folder renamed, where DIRECTORY is new or empty).
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::exists(directory, error) && !fs::is_directory(directory, error))
    throw UsageError(directory + ": exists and is not a directory");
  fs::path target = fs::path(directory).lexically_normal();
  if (target.filename().empty()) target = target.parent_path();  // "out/" names "out"
  const fs::path staging = target.string() + ".tmp" + std::to_string(::getpid());
  // Each path is registered for removal on SIGINT or SIGTERM before it is
  // made, so that no moment leaves one behind unregistered.
  TemporaryPath cleanup_folder(staging.string());
  fs::create_directories(staging, error);
  if (error) throw UsageError(directory + ": cannot create a folder beside it (" + error.message() + ")");
  std::vector<std::string> names;
  std::vector<std::unique_ptr<TemporaryPath>> cleanup_files;  // each written file, until it is moved
  auto write = [&](const std::string& name, const auto& save) {
    names.push_back(name);
    cleanup_files.push_back(std::make_unique<TemporaryPath>((staging / name).string()));
    save((staging / name).string());
  };
  try {
    for (const auto& [name, array] : inputs)
      write(name + ".npy", [&](const std::string& path) { write_npy(path, array); });
    for (const auto& [name, array] : expected)
      write("expected_" + name + ".npy", [&](const std::string& path) { write_npy(path, array); });
    nlohmann::ordered_json about = {{"exercise", problem->name()},
                                    {"size", args.value("--size", "workshop")},
                                    {"parameters", params.values()},
                                    {"seed", seed}};
    write("inputs.json", [&](const std::string& path) { write_file_atomically(path, about.dump(2) + "\n"); });
    if (!fs::exists(target, error) || fs::is_empty(target, error)) {
      fs::remove(target, error);
      fs::rename(staging, target);
    } else {
      for (const auto& name : names) refuse_unless_replaceable((target / name).string());
      for (const auto& name : names) fs::rename(staging / name, target / name);
      fs::remove(staging);
    }
  } catch (const fs::filesystem_error& failure) {
    fs::remove_all(staging, error);
    throw UsageError(directory + ": cannot write (" + failure.code().message() + ")");
  } catch (...) {
    fs::remove_all(staging, error);
    throw;
  }
  std::cout << "wrote " << inputs.size() << " input(s) and " << expected.size() << " expected output(s) to "
            << directory << '\n';
  return 0;
}

// `report` and `compare` hand over to the Python scripts in reports/
// (LADDER_REPORTS_DIR and LADDER_PYTHON in the environment override where
// they and python3 are).
int hand_over_to_python(const std::string& script, std::vector<std::string> arguments) {
  const char* directory = std::getenv("LADDER_REPORTS_DIR");
  const char* python = std::getenv("LADDER_PYTHON");
  std::string script_path = std::string(directory ? directory : LADDER_REPORTS_DIR) + "/" + script;
  std::string python_path = python ? python : LADDER_PYTHON;
  if (python_path.empty()) throw UsageError("this command needs python3 (with python3-matplotlib for reports)");
  if (::access(script_path.c_str(), R_OK) != 0)
    throw UsageError("the script " + script_path + " is not there (set LADDER_REPORTS_DIR to the reports/ folder)");
  std::vector<std::string> words = {python_path, script_path};
  words.insert(words.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (auto& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  ::execv(argv[0], argv.data());
  throw UsageError("cannot start " + python_path + " (" + std::strerror(errno) + ")");
}

int command_report(const Arguments& args) {
  if (args.positional.size() != 1)
    throw UsageError("`ladder report` takes one results file: ladder report RESULTS.json");
  std::vector<std::string> arguments = {args.positional[0]};
  if (args.flag("--out")) arguments.insert(arguments.end(), {"--out", args.value("--out")});
  return hand_over_to_python("ladder_report.py", arguments);
}

int command_compare(const Arguments& args) {
  if (args.positional.size() != 2)
    throw UsageError("`ladder compare` takes two results files: ladder compare A.json B.json");
  std::vector<std::string> arguments = args.positional;
  for (const char* option : {"--device-floor", "--host-floor"})
    if (args.flag(option)) arguments.insert(arguments.end(), {option, args.value(option)});
  return hand_over_to_python("ladder_compare.py", arguments);
}

int command_reproduce(const Arguments& args) {
  if (args.positional.size() != 1)
    throw UsageError("`ladder reproduce` takes one reference run: a results file or a folder of them");
  // The rerun uses this very program.
  std::error_code error;
  std::string self = std::filesystem::read_symlink("/proc/self/exe", error).string();
  if (error) throw UsageError("cannot find the path of this ladder program (" + error.message() + ")");
  std::vector<std::string> arguments = {args.positional[0], "--ladder", self};
  for (const char* option : {"--out", "--device-floor", "--host-floor"})
    if (args.flag(option)) arguments.insert(arguments.end(), {option, args.value(option)});
  return hand_over_to_python("ladder_reproduce.py", arguments);
}

// The command line in two tables, every command and every option with what
// `ladder --help` says of it: the parser accepts exactly what they list, and
// the help is printed from them.
struct CommandSpec {
  std::string name;
  std::string operands;  // the words after the name that are not options
  std::string help;      // a line per '\n'
  int (*run)(const Arguments&);
  bool options_apart = false;  // too many options for its line: listed under "NAME options:" instead
};

// A row per command, kept on its lines.
// clang-format off
const std::vector<CommandSpec> kCommands = {
    {"list", "", "exercises, rungs, sizes; which rungs can run here", command_list},
    {"devices", "", "CUDA devices and OpenCL platforms/devices", command_devices},
    {"run", "[EXERCISE...]", "check and time the rungs, print the speed-up table,\n"
                             "write the results JSON", command_run, true},
    {"check", "EXERCISE", "correctness only, on several awkward inputs; with\n"
                          "--track exercises, your rungs (exercises/), each\n"
                          "passing one timed beside the solution's; with --race,\n"
                          "the OpenCL rungs on Oclgrind's simulated device, on\n"
                          "small cases, untimed: it reports work-items racing on\n"
                          "one address, accesses out of bounds and reads of\n"
                          "values never written", command_check},
    {"solve", "EXERCISE", "run one rung on your own data (inputs may also be\n"
                          "FITS images, .fits, where ladder was built with cfitsio)", command_solve},
    {"generate", "EXERCISE", "write the generated inputs and the reference outputs as .npy", command_generate},
    {"report", "RESULTS.json", "tables (Markdown, CSV), charts (PNG, SVG), one HTML page", command_report},
    {"compare", "A.json B.json", "do two runs agree? judged against the spread between\n"
                                 "each run's replicates (ladder run --replicates N)", command_compare},
    {"reproduce", "RUN", "rerun a reference run (a results file or a folder of\n"
                         "them, e.g. reports/runs/...) here, and compare", command_reproduce},
};
// clang-format on

// How an option shows in its command's line of the help: [--x V], --x V,
// [--x V ...], --x V ... (the command itself says when one is missing).
enum class Occurrence { optional, required, any_number, one_or_more };

// An option whose meaning differs between commands (--out) has a row per meaning.
struct OptionSpec {
  std::string name;
  std::string value;                  // what follows it, as the help names it; empty for a flag
  std::vector<std::string> commands;  // the commands that accept it; empty: every command
  std::string help;                   // a line per '\n'
  Occurrence occurrence = Occurrence::optional;
};

// A row per option, kept on its lines.
// clang-format off
const std::vector<OptionSpec> kOptions = {
    {"--variants", "A,B", {"run", "check"}, "rungs to run (default: the whole ladder)"},
    {"--track", "T", {"run", "check"}, "solutions (default: the worked rungs) or exercises (yours)"},
    {"--size", "NAME", {"run", "check", "generate"}, "tiny | workshop (default) | large"},
    {"--param", "K=V", {"run", "solve", "generate"}, "override a parameter of the size preset (repeatable)",
     Occurrence::any_number},
    {"--sweep", "K=V1,V2", {"run"}, "run each exercise once per value of parameter K\n"
                                    "(K = threads sweeps the OpenMP thread count)"},
    {"--seed", "S", {"run", "generate"}, "input seed (default 1)"},
    {"--threads", "N", {"run", "check", "solve"}, "OpenMP threads"},
    {"--pinned", "", {"run", "solve"}, "page-locked host buffers for the CUDA rungs' copies"},
    {"--warm", "", {"run"}, "do not evict the GPU's L2 cache before each repetition"},
    {"--evict-by-writing", "", {"run"}, "evict the GPU's L2 by writing a buffer (dirty lines the timed kernel\n"
                                        "must write back), as every run up to 2026-11-26 did; default: by reading"},
    {"--min-time", "S", {"run"}, "seconds of timed work per figure, at least (default 0.2)"},
    {"--time-budget", "S", {"run"}, "seconds one rung may take (default 60): a rung predicted to take\n"
                                    "longer for one run is skipped, a slow one gets fewer repetitions"},
    {"--repetitions", "N", {"run"}, "at least N repetitions per figure (default 5); more, up to 4 times as\n"
                                    "many, while the median's 95 % interval is wider than +-1 %"},
    {"--replicates", "N", {"run"}, "run everything N times, interleaved (replicate 1 of every exercise, then\n"
                                   "replicate 2, ...), and record the spread between the replicates' medians:\n"
                                   "what a rerun on this machine would see (default 1; reference runs: 3)"},
    {"--out", "FILE", {"run"}, "results JSON (default ladder-results.json)"},
    {"--host-bandwidth", "GB/s", {"run"}, "take the host's ceiling from this figure instead of measuring"},
    {"--device-bandwidth", "GB/s", {"run"}, "take the device's ceiling from this figure instead of measuring"},
    {"--json", "", {"list", "devices"}, "print it as JSON"},
    {"--race", "", {"check"}, "the OpenCL rungs on Oclgrind, on small cases: data races, out-of-bounds and\n"
                                "uninitialised accesses (seconds; nothing timed)"},
    {"--variant", "RUNG", {"solve"}, "the rung to run", Occurrence::required},
    {"--input", "NAME=FILE.npy", {"solve"}, "one of the exercise's inputs, by name (repeatable)",
     Occurrence::one_or_more},
    {"--output", "FILE.npy", {"solve"}, "where the output goes", Occurrence::required},
    {"--out", "DIR", {"generate"}, "generate's folder for the inputs and the reference outputs",
     Occurrence::required},
    {"--out", "DIR", {"report"}, "report's folder (default: report/ beside the results file)"},
    {"--out", "DIR", {"reproduce"}, "reproduce's folder for the reruns' results (default results/reproduce)"},
    {"--device-floor", "F", {"compare", "reproduce"},
     "how far B/A may be from 1 and still count as the same, for device-timed\n"
     "figures (default 0.03)"},
    {"--host-floor", "F", {"compare", "reproduce"}, "the same for host-timed figures (default 0.05)"},
    {"--cuda-device", "N", {}, "the CUDA device (or LADDER_CUDA_DEVICE)"},
    {"--opencl-device", "P:D", {}, "the OpenCL platform and device (or LADDER_OPENCL_DEVICE)"},
};
// clang-format on

bool accepts(const OptionSpec& option, const std::string& command) {
  return option.commands.empty() ||
         std::find(option.commands.begin(), option.commands.end(), command) != option.commands.end();
}

bool required(const OptionSpec& option) {
  return option.occurrence == Occurrence::required || option.occurrence == Occurrence::one_or_more;
}

// "--input NAME=FILE.npy ...", bracketed where optional.
std::string synopsis(const OptionSpec& option) {
  const bool repeated = option.occurrence == Occurrence::any_number || option.occurrence == Occurrence::one_or_more;
  std::string text = option.name + (option.value.empty() ? "" : " " + option.value) + (repeated ? " ..." : "");
  return required(option) ? text : "[" + text + "]";
}

// A command's line in the help: its operands, then the options that are
// its own, the required ones first.
std::string synopsis(const CommandSpec& command) {
  std::string text = command.name + (command.operands.empty() ? "" : " " + command.operands);
  if (command.options_apart) return text + " [options]";
  for (bool required_ones : {true, false})
    for (const auto& option : kOptions)
      if (!option.commands.empty() && accepts(option, command.name) && required(option) == required_ones)
        text += " " + synopsis(option);
  return text;
}

// "  LEFT   HELP", the help's lines starting `width` columns in; where LEFT
// is too wide for that, the help starts on the next line.
void print_entry(std::ostream& out, const std::string& left, const std::string& help, std::size_t width) {
  const std::string indent(2 + width, ' ');
  out << "  " << left;
  if (left.size() < width)
    out << std::string(width - left.size(), ' ');
  else
    out << '\n' << indent;
  for (char c : help) out << c << (c == '\n' ? indent : "");
  out << '\n';
}

void print_option(std::ostream& out, const OptionSpec& option) {
  print_entry(out, option.name + (option.value.empty() ? "" : " " + option.value), option.help, 19);
}

std::string usage() {
  std::ostringstream out;
  out << "usage: ladder COMMAND [options]\n\ncommands:\n";
  for (const auto& command : kCommands) print_entry(out, synopsis(command), command.help, 36);
  std::vector<std::string> apart;  // the commands whose options have a section of their own
  for (const auto& command : kCommands) {
    if (!command.options_apart) continue;
    apart.push_back(command.name);
    out << '\n' << command.name << " options:\n";
    for (const auto& option : kOptions)
      if (!option.commands.empty() && accepts(option, command.name)) print_option(out, option);
  }
  out << "\noptions of the other commands:\n";
  for (const auto& option : kOptions)
    if (!option.commands.empty() &&
        std::none_of(apart.begin(), apart.end(), [&](const std::string& name) { return accepts(option, name); }))
      print_option(out, option);
  out << "\ndevice options (every command):\n";
  for (const auto& option : kOptions)
    if (option.commands.empty()) print_option(out, option);
  return out.str();
}

bool asks_for_help(const std::string& word) { return word == "--help" || word == "-h" || word == "help"; }

const CommandSpec* find_command(const std::string& name) {
  for (const auto& command : kCommands)
    if (command.name == name) return &command;
  return nullptr;
}

// UsageError naming the nearest command and every one.
[[noreturn]] void refuse_command(const std::string& word) {
  std::vector<std::string> names;
  std::string accepted;
  for (const auto& command : kCommands)
    names.push_back(command.name), accepted += (accepted.empty() ? "" : ", ") + command.name;
  throw UsageError("unknown command '" + word + "'" + did_you_mean(word, names) + " (accepted: " + accepted + ")");
}

// UsageError for an option `command` does not accept, naming those it does.
[[noreturn]] void refuse_option(const std::string& option, const std::string& command) {
  std::set<std::string> own;  // sorted, and each name once
  std::vector<std::string> every;
  for (const auto& spec : kOptions)
    if (spec.commands.empty())
      every.push_back(spec.name);
    else if (accepts(spec, command))
      own.insert(spec.name);
  std::vector<std::string> names = every;
  std::string accepted;
  for (const auto& name : own) names.push_back(name), accepted += " " + name;
  for (const auto& name : every) accepted += " " + name;
  throw UsageError("unknown option " + option + " for `ladder " + command + "`" + did_you_mean(option, names) +
                   " (accepted:" + accepted + ")");
}

std::string command_line(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) {
    if (i > 0) line += ' ';
    line += argv[i];
  }
  return line;
}

Arguments parse(int argc, char** argv) {
  Arguments args;
  args.command_line = command_line(argc, argv);
  if (argc < 2) throw UsageError("no command given\n" + usage());
  args.command = argv[1];
  if (asks_for_help(args.command)) return args;
  if (find_command(args.command) == nullptr) refuse_command(args.command);
  for (int i = 2; i < argc; ++i) {
    std::string word = argv[i];
    if (word.rfind("--", 0) != 0) {
      args.positional.push_back(word);
      continue;
    }
    // The value comes after '=' or as the next word.
    std::string value;
    const auto takes_value = [&](const OptionSpec& spec) { return spec.name == word && !spec.value.empty(); };
    if (auto equals = word.find('='); equals != std::string::npos) {
      value = word.substr(equals + 1);
      word = word.substr(0, equals);
    } else if (std::any_of(kOptions.begin(), kOptions.end(), takes_value)) {
      if (i + 1 >= argc) throw UsageError("option " + word + " needs a value");
      value = argv[++i];
    }
    const bool known = std::any_of(kOptions.begin(), kOptions.end(), [&](const OptionSpec& spec) {
      return spec.name == word && accepts(spec, args.command);
    });
    if (!known && word != "--help") refuse_option(word, args.command);
    args.options[word].push_back(value);
  }
  return args;
}

}  // namespace
}  // namespace ladder

int main(int argc, char** argv) {
  using namespace ladder;
  try {
    // Under mpirun, every rank but 0 follows rank 0's MPI rungs instead (ladder/mpi.hpp).
    relaunch_with_ranks(argc, argv);  // --ranks N: this command again, as N ranks under mpirun
    if (const std::optional<int> follower_status = start_mpi_rank()) return *follower_status;
    Arguments args = parse(argc, argv);
    if (asks_for_help(args.command) || args.flag("--help")) {
      std::cout << usage();
      return 0;
    }
    return find_command(args.command)->run(args);
  } catch (const UsageError& error) {
    std::cerr << "ladder: error: " << error.what() << '\n';
    return 2;
  } catch (const DeviceError& error) {
    std::cerr << "ladder: device error: " << error.what() << '\n';
    return 3;
  } catch (const std::bad_alloc&) {
    // Every command predicts its memory before allocating (Problem::host_bytes);
    // where a prediction falls short, the allocation that fails is caught here.
    std::cerr << "ladder: error: not enough memory for these inputs and parameters (an allocation failed); "
                 "try a smaller --size or --param\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "ladder: internal error: " << error.what() << '\n';
    return 4;
  }
}
