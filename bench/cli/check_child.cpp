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
#include "ladder/mpi_job.hpp"
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

// A word for the shell, in single quotes. Built in steps: GCC 12 at -O3
// warns (-Wrestrict, a false positive) on "'" + std::string here.
std::string quoted(const std::string& word) {
  std::string text = "'";
  text += std::regex_replace(word, std::regex("'"), "'\\''");
  text += "'";
  return text;
}

}  // namespace

std::optional<CheckVerdict> read_verdict(const std::string& path) {
  std::ifstream in(path);
  std::string name, text;
  if (!std::getline(in, name)) return std::nullopt;
  std::getline(in, text, '\0');
  for (const auto& [kind, known] : kVerdictNames)
    if (known == name) return CheckVerdict{kind, text};
  return std::nullopt;
}

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

CheckVerdict check_in_mpi_job(const Arguments& args, const std::string& exercise, const std::string& rung,
                              const std::string& track, int ranks, const std::string& timed_size,
                              const std::filesystem::path& scratch) {
  const auto verdict_file = scratch / (rung + ".verdict");
  std::filesystem::remove(verdict_file);
  std::vector<std::string> command = {"check", exercise, "--variants", rung, "--track", track};
  for (const char* option : {"--threads", "--hang-limit"})
    if (args.flag(option)) command.insert(command.end(), {option, args.value(option)});
  std::vector<std::pair<std::string, std::string>> environment = {{kCheckVerdict, verdict_file.string()}};
  if (!timed_size.empty()) environment.emplace_back(kCheckTimedSize, timed_size);
  const MpiJob job = run_mpi_job(ranks, command, false, environment);
  if (auto verdict = read_verdict(verdict_file.string())) return *verdict;
  if (job.problem && job.problem->kind == JobProblem::not_implemented)
    return {CheckVerdict::not_implemented, "not implemented (" + job.problem->text + ")"};
  if (job.problem)
    return {CheckVerdict::fail, "FAIL case " + (job.case_text.empty() ? "(before the first)" : job.case_text) + ": " +
                                    job.problem->text};
  std::string last;  // the job ended without a verdict and the board says nothing: its last words
  for (std::size_t i = job.output.size() > 6 ? job.output.size() - 6 : 0; i < job.output.size(); ++i)
    if (job.output[i].rfind(kCaseAnnouncement, 0) != 0) last += "\n      " + job.output[i];
  return {CheckVerdict::fail, "FAIL: the check on " + std::to_string(ranks) + " ranks ended without a verdict, exit status " +
                                  std::to_string(job.status) + "." + (last.empty() ? "" : " Its last words:" + last)};
}

}  // namespace ladder::cli
