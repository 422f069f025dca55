// The command line: every command and every option in two tables, with what
// `ladder --help` says of each; the parser accepts exactly what they list,
// and the help is printed from them.
#include <algorithm>
#include <ostream>
#include <set>
#include <sstream>

#include "bench/cli/cli.hpp"
#include "ladder/error.hpp"
#include "ladder/suggest.hpp"

namespace ladder::cli {
namespace {

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
    {"board", "CLASS_FOLDER", "the instructor's board of what participants handed in\n"
                              "(HTML, Markdown, CSV): docs/usage.md, For instructors", command_board},
    {"pace", "", "the harness's repetition rule for a timer in another\n"
                 "process (the peers): prints `sample`, reads its seconds\n"
                 "back, a line each, until `done {statistics JSON}`", command_pace},
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
                                    "(K = threads sweeps the OpenMP thread count; K = ranks runs\n"
                                    "the command on each number of MPI ranks, under mpirun, into one\n"
                                    "results file)"},
    {"--weak", "", {"run"}, "with --sweep ranks=...: weak scaling, each exercise's main dimension\n"
                            "(frames, batch, n or height) times the ranks, so that each rank's share\n"
                            "stays the size's (default: strong scaling, one input for every count)"},
    {"--ranks", "N", {"run", "check", "solve"}, "the same command as N MPI ranks under mpirun: the mpi and\n"
                                                "cuda_nccl rungs share the work, rank 0 prints and writes"},
    {"--hang-limit", "S", {"run", "check", "solve"}, "seconds an MPI rung's step may go without every rank\n"
                                                     "finishing it before it is called a hang (default 10, and\n"
                                                     "1 s more per 20 MB of the case's arrays)"},
    {"--seed", "S", {"run", "generate"}, "input seed (default 1)"},
    {"--threads", "N", {"run", "check", "solve"}, "OpenMP threads"},
    {"--pinned", "", {"run", "solve"}, "page-locked host buffers for the CUDA rungs' copies"},
    {"--warm", "", {"run"}, "do not evict the GPU's L2 cache before each repetition"},
    {"--evict-by-writing", "", {"run"}, "evict the GPU's L2 by writing a buffer (dirty lines the timed kernel\n"
                                        "must write back), as every run up to 2026-11-26 did; default: by reading"},
    {"--min-time", "S", {"run"}, "seconds of timed work per figure, at least (default 0.2)"},
    {"--time-budget", "S", {"run"}, "seconds one rung may take (default 60): a rung predicted to take\n"
                                    "longer for one run is skipped, a slow one gets fewer repetitions"},
    {"--round-trips", "", {"run"}, "time every rung's transfer-inclusive figure as round trips; by default a\n"
                                   "CPU rung whose upload and download are under 1 % of its compute gets\n"
                                   "compute + upload + download, timed apart (marked ~ in the table)"},
    {"--repetitions", "N", {"run"}, "at least N repetitions per figure (default 5); more, up to 4 times as\n"
                                    "many, while the median's 95 % interval is wider than +-1 %"},
    {"--replicates", "N", {"run"}, "run everything N times, interleaved (replicate 1 of every exercise, then\n"
                                   "replicate 2, ...), and record the spread between the replicates' medians:\n"
                                   "what a rerun on this machine would see (default 1; reference runs: 3)"},
    {"--out", "FILE", {"run"}, "results JSON (default ladder-results.json)"},
    {"--host-bandwidth", "GB/s", {"run"}, "take the host's ceiling from this figure instead of measuring"},
    {"--device-bandwidth", "GB/s", {"run"}, "take the device's ceiling from this figure instead of measuring"},
    {"--json", "", {"list", "devices"}, "print it as JSON"},
    {"--fresh-inputs", "", {"run"}, "check each rung once more after its timing, on inputs of a seed drawn\n"
                                    "then, its outputs poisoned before the timed repetitions (a rung that\n"
                                    "replays an answer fails); implied by --class-folder"},
    {"--class-folder", "DIR", {"check", "run"}, "hand the exercises track's verdicts and times in to the class folder\n"
                                                "DIR (or LADDER_CLASS_FOLDER), as DIR/<name>/: docs/usage.md, For\n"
                                                "instructors; a run's seed is drawn then, unless --seed is given"},
    {"--name", "NAME", {"check", "run"}, "the participant's name in the class folder (or LADDER_PARTICIPANT;\n"
                                         "default: the login name)"},
    {"--race", "", {"check"}, "the OpenCL rungs on Oclgrind, on small cases: data races, out-of-bounds and\n"
                                "uninitialised accesses (seconds; nothing timed)"},
    {"--variant", "RUNG", {"solve"}, "the rung to run", Occurrence::required},
    {"--input", "NAME=FILE.npy", {"solve"}, "one of the exercise's inputs, by name (repeatable)",
     Occurrence::one_or_more},
    {"--output", "FILE.npy", {"solve"}, "where the output goes", Occurrence::required},
    {"--out", "DIR", {"generate"}, "generate's folder for the inputs and the reference outputs",
     Occurrence::required},
    {"--out", "DIR", {"report"}, "report's folder (default: report/ beside the results file)"},
    {"--machine", "FILE", {"report"}, "the model's links between nodes, where the run had one node\n"
                                      "(default: reports/machines/4-gpus-4x200g-infiniband.json)"},
    {"--out", "DIR", {"reproduce"}, "reproduce's folder for the reruns' results (default results/reproduce)"},
    {"--out", "DIR", {"board"}, "the board's folder: DIR/board.html, DIR/board.md, DIR/board.csv (default board)"},
    {"--roster", "FILE", {"board"}, "the class's names, one a line: who has not handed in is named"},
    {"--hide-names", "", {"board"}, "a number for each participant instead of their name (for projection)"},
    {"--device-only", "", {"reproduce"}, "rerun and compare only the rungs the device's events time (CUDA, and\n"
                                         "OpenCL and Python on a GPU): no CPU rungs, no peers"},
    {"--device-floor", "F", {"compare", "reproduce"},
     "how far B/A may be from 1 and still count as the same, for device-timed\n"
     "figures (default 0.03)"},
    {"--host-floor", "F", {"compare", "reproduce"}, "the same for host-timed figures (default 0.05)"},
    {"--policy", "JSON", {"pace"}, "a run's context.timing_policy: min_time_s, min_repetitions,\n"
                                   "max_repetitions, noise_target, time_budget_s[, max_batches]",
     Occurrence::required},
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
      if (!option.commands.empty() && accepts(option, command.name) && required(option) == required_ones) {
        // In two steps: GCC 12 at -O3 warns (-Wrestrict, a false positive) on " " + synopsis(option).
        text += ' ';
        text += synopsis(option);
      }
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

}  // namespace

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

bool takes_value(const std::string& option) {
  return std::any_of(kOptions.begin(), kOptions.end(),
                     [&](const OptionSpec& spec) { return spec.name == option && !spec.value.empty(); });
}

bool asks_for_help(const std::string& word) { return word == "--help" || word == "-h" || word == "help"; }

const CommandSpec* find_command(const std::string& name) {
  for (const auto& command : kCommands)
    if (command.name == name) return &command;
  return nullptr;
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

}  // namespace ladder::cli
