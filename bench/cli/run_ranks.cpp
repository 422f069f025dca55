// `ladder run ... --sweep ranks=V1,V2 [--weak]`: the command once per rank
// count, each a `ladder run` of its own (under mpirun for more than one
// rank), its results merged into one file: strong scaling (one input for
// every count) or weak (the input grows with the ranks).
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "bench/cli/cli.hpp"
#include "ladder/backends.hpp"
#include "ladder/error.hpp"
#include "ladder/npy.hpp"

namespace ladder::cli {
namespace {


// Weak scaling grows the dimension that the exercise's distributed rungs
// split among the ranks: the problem names it.
std::string weak_dimension(const Problem& problem, const Params& params) {
  if (std::optional<std::string> name = problem.weak_scaling_parameter(params)) return *name;
  throw UsageError("--weak: " + problem.name() + " has no distributed rung, so nothing to grow with the ranks");
}

// One value of --sweep ranks=...: a `ladder run` of its own on `ranks` ranks,
// of every exercise (strong scaling), or of one with its main dimension
// grown by the ranks (weak scaling: a --param per exercise).
struct RanksLaunch {
  int ranks = 1;
  std::vector<std::string> exercises;
  std::string dimension;  // weak scaling: the parameter grown, and its value here
  std::string value;
};

// The launches of --sweep ranks=V1,V2 [--weak], checked before any runs: the
// counts, MPI and mpirun, and each case's parameters and memory.
std::vector<RanksLaunch> ranks_launches(const Arguments& args, const std::string& values) {
  const bool weak = args.flag("--weak");
  if (const Availability mpi = mpi_availability(); !mpi.available) throw UsageError("--sweep ranks: " + mpi.reason);
  if (launched_by_mpirun())
    throw UsageError("--sweep ranks=... starts mpirun itself: use it without mpirun and without --ranks");
  std::vector<int> counts;
  for (const auto& value : split_list(values)) {
    char* end = nullptr;
    const long n = std::strtol(value.c_str(), &end, 10);
    if (*end != '\0' || n < 1 || n > 1024)
      throw UsageError("--sweep ranks=" + values + ": " + value + " is not a number of MPI ranks from 1 to 1024");
    if (std::find(counts.begin(), counts.end(), n) != counts.end())
      throw UsageError("--sweep ranks=" + values + " names " + value + " twice");
    counts.push_back(static_cast<int>(n));
  }
  if (counts.empty()) throw UsageError("--sweep ranks= names no values (e.g. --sweep ranks=1,2,4)");
  std::sort(counts.begin(), counts.end());  // the fewest ranks first: the others are measured against them
  if (*std::max_element(counts.begin(), counts.end()) > 1 && !on_path("mpirun"))
    throw UsageError("--sweep ranks: mpirun is not on the PATH (Debian: apt-get install openmpi-bin)");

  const Params overrides = parameter_overrides(args);
  const MemoryLimit memory_limit = host_memory_limit();
  const std::string size = args.value("--size", "workshop");
  const auto exercises = args.positional.empty() ? exercise_names() : args.positional;
  std::vector<RanksLaunch> launches;
  for (int ranks : counts) {
    if (!weak) launches.push_back({ranks, exercises, "", ""});
    for (const auto& exercise : exercises) {
      auto problem = make_problem(exercise);
      chosen_rungs(*problem, split_list(args.value("--variants")));
      Params params = problem->resolve(size, overrides);
      if (weak) {
        const std::string dimension = weak_dimension(*problem, params);
        const std::string value = std::to_string(params.integer(dimension) * ranks);
        Params grown = overrides;
        grown.set(dimension, value);
        params = problem->resolve(size, grown);  // refuses a grown value past the parameter's range
        launches.push_back({ranks, {exercise}, dimension, value});
      }
      refuse_unless_memory_suffices(*problem, params, memory_limit);
    }
  }
  return launches;
}

// The launch under way, for the signal handlers: Ctrl-C or a SIGTERM to this
// process reaches it (and mpirun passes it to its ranks).
volatile std::sig_atomic_t launched_pid = 0;
volatile std::sig_atomic_t signal_received = 0;

extern "C" void forward_signal(int signal_number) {
  signal_received = signal_number;
  if (launched_pid > 0) ::kill(static_cast<pid_t>(launched_pid), signal_number);
}

// While the sweep runs: SIGINT, SIGTERM and SIGHUP go on to the launch.
struct ForwardedSignals {
  static constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction previous[3];
  ForwardedSignals() {
    struct sigaction forward;
    std::memset(&forward, 0, sizeof forward);
    forward.sa_handler = forward_signal;
    sigemptyset(&forward.sa_mask);
    for (int i = 0; i < 3; ++i) ::sigaction(kSignals[i], &forward, &previous[i]);
  }
  ~ForwardedSignals() {
    for (int i = 0; i < 3; ++i) ::sigaction(kSignals[i], &previous[i], nullptr);
  }
};

// This program again, with `words` after its name; returns its wait status.
// Should this process die, even by SIGKILL, the launch gets SIGTERM
// (PR_SET_PDEATHSIG, kept through mpirun's exec), so no rank is left behind.
int launch_and_wait(const std::vector<std::string>& words) {
  char self[4096];
  const ssize_t length = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (length <= 0) throw UsageError("--sweep ranks: cannot tell where this ladder program is (/proc/self/exe)");
  self[length] = '\0';
  std::vector<std::string> command = {self};
  command.insert(command.end(), words.begin(), words.end());
  std::vector<char*> argv;
  for (auto& word : command) argv.push_back(word.data());
  argv.push_back(nullptr);
  std::cout.flush();
  std::cerr.flush();
  const pid_t parent = ::getpid();
  const pid_t child = ::fork();
  if (child < 0) throw DeviceError(std::string("--sweep ranks: fork failed: ") + std::strerror(errno));
  if (child == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(143);  // the parent went before the line above
    ::execv(self, argv.data());
    ::_exit(127);
  }
  launched_pid = child;
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  launched_pid = 0;
  return status;
}

// The words of this command for one launch: every option but --sweep, --weak
// and --out, the launch's exercises, its part file, its ranks and its grown
// dimension (last, so that it wins over a --param of the same name).
std::vector<std::string> launch_words(const Arguments& args, const RanksLaunch& launch, const std::string& part) {
  std::vector<std::string> words = {"run"};
  words.insert(words.end(), launch.exercises.begin(), launch.exercises.end());
  for (const auto& [option, values] : args.options) {
    if (option == "--sweep" || option == "--weak" || option == "--out") continue;
    for (const auto& value : values) words.push_back(takes_value(option) ? option + "=" + value : option);
  }
  words.insert(words.end(), {"--out", part});
  if (launch.ranks > 1) words.insert(words.end(), {"--ranks", std::to_string(launch.ranks)});
  if (!launch.dimension.empty()) words.insert(words.end(), {"--param", launch.dimension + "=" + launch.value});
  return words;
}

// The parts' folder, removed with what is in it however the sweep ends.
struct PartsFolder {
  std::filesystem::path path;
  PartsFolder() {
    std::string name = (std::filesystem::temp_directory_path() / "ladder-ranks-XXXXXX").string();
    if (!::mkdtemp(name.data()))
      throw UsageError("--sweep ranks: cannot make a temporary folder: " + std::string(std::strerror(errno)));
    path = name;
  }
  ~PartsFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

// One context for the merged file: the first launch's (its machine, ceilings
// and timing policy), with the command as typed, the load as the last launch
// ended, every launch's machine probes and every launch's communication
// probe (one per backend and count of ranks above 1).
nlohmann::json merged_context(const std::vector<nlohmann::json>& parts, const std::string& command_line) {
  nlohmann::json context = parts.front()["context"];
  context["command_line"] = command_line;
  nlohmann::json& readings = context["readings"];
  readings["load_average_after"] = parts.back()["context"]["readings"]["load_average_after"];
  nlohmann::json scalar = nlohmann::json::array(), memory = nlohmann::json::array(), steal = nullptr;
  for (const auto& part : parts) {
    const auto& theirs = part["context"]["readings"];
    if (const auto& probe = theirs["machine_probe"]; probe.is_object()) {
      for (const auto& t : probe["scalar_chain_s"]) scalar.push_back(t);
      for (const auto& t : probe["memory_pass_s"]) memory.push_back(t);
    }
    if (theirs["cpu_steal_fraction"].is_number() &&
        (steal.is_null() || theirs["cpu_steal_fraction"].get<double>() > steal.get<double>()))
      steal = theirs["cpu_steal_fraction"];
  }
  readings["machine_probe"] = {
      {"taken", "before each replicate and after the last, in each launch of the sweep over ranks"},
      {"scalar_chain_s", scalar},
      {"memory_pass_s", memory}};
  readings["cpu_steal_fraction"] = steal;
  nlohmann::json communication = nlohmann::json::array();
  for (const auto& part : parts)
    for (const auto& measured : part["context"].value("communication", nlohmann::json::array()))
      communication.push_back(measured);
  if (!communication.empty()) context["communication"] = communication;
  return context;
}

// After the sweep: each distributed rung's times against the fewest ranks.
void print_ranks_scaling(const nlohmann::json& results, bool weak) {
  std::cout << (weak ? "weak" : "strong") << " scaling over MPI ranks, against the fewest (p0 ranks, time T0): "
            << (weak ? "time, scaled speed-up p T0/(p0 Tp), efficiency T0/Tp"
                     : "time, speed-up T0/Tp, efficiency p0 T0/(p Tp)")
            << "; compute-only, then transfer-inclusive\n";
  std::map<std::pair<std::string, std::string>, std::pair<int, nlohmann::json>> first;  // (exercise, rung)
  for (const auto& entry : results) {
    for (const auto& row : entry["rungs"]) {
      const std::string rung = row["rung"];
      if (row["status"] != "ok" || !shares_work_among_ranks(rung)) continue;
      const int ranks = entry["ranks"];
      const auto key = std::make_pair(entry["exercise"].get<std::string>(), rung);
      if (!first.count(key)) first[key] = {ranks, row["timings"]};
      const auto& [base_ranks, base] = first[key];
      std::ostringstream line;
      line << "  " << std::left << std::setw(15) << key.first << std::setw(14) << rung << std::right << std::setw(5)
           << ranks << (ranks == 1 ? " rank " : " ranks");
      for (const char* figure : {"compute", "transfer"}) {
        const double time = row["timings"][figure]["median_s"], base_time = base[figure]["median_s"];
        const double speedup = base_time / time * (weak ? double(ranks) / base_ranks : 1.0);
        line << std::setw(11) << format_time(time) << std::setprecision(3) << std::setw(9) << speedup << "x"
             << std::fixed << std::setprecision(0) << std::setw(5) << 100 * speedup * base_ranks / ranks << " %"
             << std::defaultfloat;
      }
      std::cout << line.str() << '\n';
    }
  }
}

}  // namespace

// `ladder run ... --sweep ranks=V1,V2 [--weak]`: every launch is this command
// as a `ladder run` of its own (mpirun through --ranks, with all its
// protections; one rank in a process of its own), writing a part; the parts
// are merged into one file, each entry tagged with its ranks and its scaling.
int run_over_ranks(const Arguments& args, const std::string& values, const std::string& out) {
  const std::vector<RanksLaunch> launches = ranks_launches(args, values);
  const bool weak = args.flag("--weak");
  PartsFolder folder;
  std::optional<ForwardedSignals> forwarded(std::in_place);

  bool any_failed = false;
  int stopped_with = 0;
  std::vector<nlohmann::json> parts;
  for (std::size_t i = 0; i < launches.size() && !signal_received && !stopped_with; ++i) {
    const RanksLaunch& launch = launches[i];
    const std::string part = (folder.path / ("part-" + std::to_string(i) + ".json")).string();
    std::cout << "== " << launch.ranks << " MPI rank" << (launch.ranks == 1 ? "" : "s")
              << (weak ? " (weak scaling: " + launch.dimension + "=" + launch.value + ")" : "") << '\n';
    const int status = launch_and_wait(launch_words(args, launch, part));
    if (signal_received) break;
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (code == 0 || code == 1) {
      any_failed |= code == 1;
      std::ifstream in(part);
      nlohmann::json document = nlohmann::json::parse(in, nullptr, false);
      if (document.is_discarded() || !document.contains("results"))
        throw DeviceError("--sweep ranks: the run on " + std::to_string(launch.ranks) + " ranks wrote no results");
      for (auto& entry : document["results"]) {
        if (entry.value("ranks", launch.ranks) != launch.ranks)
          throw DeviceError("--sweep ranks: the run asked for " + std::to_string(launch.ranks) + " ranks ran on " +
                            std::to_string(entry["ranks"].get<int>()));
        entry["ranks"] = launch.ranks;
        entry["scaling"] = weak ? "weak" : "strong";
        if (weak) entry["scaled_parameter"] = launch.dimension;
      }
      parts.push_back(std::move(document));
      continue;
    }
    std::cerr << "ladder: error: the run on " << launch.ranks << " MPI rank" << (launch.ranks == 1 ? "" : "s")
              << " ended "
              << (WIFSIGNALED(status) ? std::string("by signal ") + strsignal(WTERMSIG(status))
                                      : "with exit status " + std::to_string(code))
              << " (above: why); no results written\n";
    stopped_with = code >= 2 && code <= 4 ? code : 3;
  }
  forwarded.reset();
  if (signal_received) {
    std::filesystem::remove_all(folder.path);
    ::signal(signal_received, SIG_DFL);
    ::raise(signal_received);  // ends as the signal would have, the parts removed
  }
  if (stopped_with) return stopped_with;

  // Entries in the order of the exercises, each exercise's in the order of the ranks given.
  const auto exercises = args.positional.empty() ? exercise_names() : args.positional;
  nlohmann::json results = nlohmann::json::array();
  for (const auto& exercise : exercises)
    for (const auto& part : parts)
      for (const auto& entry : part["results"])
        if (entry["exercise"] == exercise) results.push_back(entry);
  print_ranks_scaling(results, weak);
  nlohmann::json document = {
      {"schema_version", kSchemaVersion}, {"context", merged_context(parts, args.command_line)}, {"results", results}};
  write_file_atomically(out, document.dump(1) + "\n");
  std::cout << "results: " << out << " (" << launches.size() << " runs merged)\n";
  if (any_failed) std::cerr << "ladder: at least one rung failed its check (see above)\n";
  return any_failed ? 1 : 0;
}

}  // namespace ladder::cli
