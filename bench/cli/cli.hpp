#pragma once
// What the `ladder` commands share: the command line as parsed, the helpers
// that read its options, and each command's entry point. One file per
// command (or group) beside this one; bench/ladder_main.cpp dispatches.
#include <map>
#include <string>
#include <vector>

#include "ladder/harness.hpp"
#include "ladder/memory.hpp"

namespace ladder::cli {

// The command line as parsed (parse(), in command_line.cpp): the command,
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

// A row of the table of commands (kCommands, command_line.cpp), which the
// parser, the help and main() all read.
struct CommandSpec {
  std::string name;
  std::string operands;  // the words after the name that are not options
  std::string help;      // a line per '\n'
  int (*run)(const Arguments&);
  bool options_apart = false;  // too many options for its line: listed under "NAME options:" instead
};
Arguments parse(int argc, char** argv);
std::string usage();
bool asks_for_help(const std::string& word);
bool takes_value(const std::string& option);  // --out FILE does, --warm does not
const CommandSpec* find_command(const std::string& name);

// Reading the options (common.cpp). Each throws UsageError on a bad value.
long parse_integer(const std::string& option, const std::string& text, long min, long max);
double parse_positive(const std::string& option, const std::string& text);
std::vector<std::string> split_list(const std::string& text);
bool on_path(const std::string& program);  // an executable of that name in a folder of PATH
RunOptions run_options(const Arguments& args);
Params parameter_overrides(const Arguments& args);
std::string checked_track(const Arguments& args);

// The memory check before a generated case is allocated (run, check,
// generate): one message naming both figures where it would not fit.
void refuse_unless_memory_suffices(const Problem& problem, const Params& params, const MemoryLimit& limit);

// The commands, one each; the exit status is theirs.
int command_list(const Arguments& args);       // list.cpp
int command_devices(const Arguments& args);    // list.cpp
int command_run(const Arguments& args);        // run.cpp
int command_pace(const Arguments& args);       // run.cpp
// `ladder run --sweep ranks=V1,V2 [--weak]`, for command_run.
int run_over_ranks(const Arguments& args, const std::string& values, const std::string& out);  // run_ranks.cpp
int command_check(const Arguments& args);      // check.cpp
int command_solve(const Arguments& args);      // solve.cpp
int command_generate(const Arguments& args);   // generate.cpp
int command_report(const Arguments& args);     // report.cpp
int command_compare(const Arguments& args);    // report.cpp
int command_reproduce(const Arguments& args);  // report.cpp
int command_board(const Arguments& args);      // report.cpp

}  // namespace ladder::cli
