// `ladder report`, `ladder compare` and `ladder reproduce`: each checks its
// operands and hands over to its Python script in reports/.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "bench/cli/cli.hpp"
#include "ladder/error.hpp"

namespace ladder::cli {
namespace {

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

}  // namespace

int command_report(const Arguments& args) {
  if (args.positional.size() != 1)
    throw UsageError("`ladder report` takes one results file: ladder report RESULTS.json");
  std::vector<std::string> arguments = {args.positional[0]};
  for (const char* option : {"--out", "--machine"})
    if (args.flag(option)) arguments.insert(arguments.end(), {option, args.value(option)});
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
  if (args.flag("--device-only")) arguments.push_back("--device-only");
  return hand_over_to_python("ladder_reproduce.py", arguments);
}

// The instructor's board of a class folder (reports/ladder_board.py).
int command_board(const Arguments& args) {
  if (args.positional.size() != 1)
    throw UsageError("`ladder board` takes one class folder: ladder board CLASS_FOLDER");
  std::vector<std::string> arguments = {args.positional[0]};
  for (const char* option : {"--out", "--roster"})
    if (args.flag(option)) arguments.insert(arguments.end(), {option, args.value(option)});
  if (args.flag("--hide-names")) arguments.push_back("--hide-names");
  return hand_over_to_python("ladder_board.py", arguments);
}

}  // namespace ladder::cli
