// A check in a child process: `ladder check` runs each OpenCL rung's check
// in a child `ladder check` of its own (under Oclgrind with --race), so that
// a kernel that crashes the process is still that rung's FAIL, with its
// case. The child writes its verdict to a file; the parent reads it back.
#include <sys/wait.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <regex>

#include "bench/cli/check.hpp"
#include "ladder/npy.hpp"

namespace ladder::cli {
namespace {

// A verdict file: the kind's name on its first line, then the text.
const std::vector<std::pair<CheckVerdict::Kind, std::string>> kVerdictNames = {
    {CheckVerdict::pass, "pass"},
    {CheckVerdict::fail, "fail"},
    {CheckVerdict::not_implemented, "not_implemented"},
    {CheckVerdict::skipped, "skipped"},
    {CheckVerdict::no_skeleton, "no_skeleton"}};

std::optional<CheckVerdict> read_verdict(const std::string& path) {
  std::ifstream in(path);
  std::string name, text;
  if (!std::getline(in, name)) return std::nullopt;
  std::getline(in, text, '\0');
  for (const auto& [kind, known] : kVerdictNames)
    if (known == name) return CheckVerdict{kind, text};
  return std::nullopt;
}

// A word for the shell, in single quotes. Built in steps: GCC 12 at -O3
// warns (-Wrestrict, a false positive) on "'" + std::string here.
std::string quoted(const std::string& word) {
  std::string text = "'";
  text += std::regex_replace(word, std::regex("'"), "'\\''");
  text += "'";
  return text;
}

}  // namespace

void write_verdict(const std::string& path, const CheckVerdict& verdict) {
  for (const auto& [kind, name] : kVerdictNames)
    if (kind == verdict.kind) write_file_atomically(path, name + "\n" + verdict.text);
}

std::string ChildCheck::last_case() const {
  for (auto line = lines.rbegin(); line != lines.rend(); ++line)
    if (line->rfind(kCaseAnnouncement, 0) == 0) return line->substr(std::strlen(kCaseAnnouncement));
  return "";
}

CheckVerdict ChildCheck::crash_verdict(const std::string& where) const {
  std::string last;
  for (std::size_t i = lines.size() > 6 ? lines.size() - 6 : 0; i < lines.size(); ++i)
    if (lines[i].rfind(kCaseAnnouncement, 0) != 0) last += "\n      " + lines[i];
  const int code = WEXITSTATUS(status);  // the shell's: 128 + N for signal N
  const std::string how = code > 128 ? "killed by signal " + std::to_string(code - 128) + " (" + strsignal(code - 128) +
                                           "): a kernel that writes outside its buffers corrupts the runtime's memory; "
                                           "is a bounds test missing?"
                                     : "exit status " + std::to_string(code) + ".";
  return {CheckVerdict::fail, "FAIL case " + (last_case().empty() ? "(before the first)" : last_case()) +
                                  ": the check " + where + " ended without a verdict, " + how +
                                  " Its last words:" + last};
}

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

}  // namespace ladder::cli
