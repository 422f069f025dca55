#pragma once
// What the three files of `ladder check` share: a rung's verdict, the
// child process each OpenCL rung is checked in (check_child.cpp), and the
// race check on Oclgrind (check_race.cpp); check.cpp is the command.
#include <unistd.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/cli/cli.hpp"
#include "bench/cli/hand_in.hpp"
#include "ladder/problem.hpp"

namespace ladder::cli {

// One rung's line in `ladder check`: what it came to, and the words after its name.
struct CheckVerdict {
  enum Kind { pass, fail, not_implemented, skipped, no_skeleton } kind;
  std::string text;
  // On the exercises track, a passing rung's compute time and the solution's, where timed here.
  std::optional<double> seconds{}, solution_seconds{};
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
// Set for a child that checks an MPI rung in a job of its own: the size at
// which it also times the rung where it passes (the exercises track).
constexpr const char* kCheckTimedSize = "LADDER_CHECK_TIMED_SIZE";

// The child's one verdict, to the file kCheckVerdict names, and read back.
void write_verdict(const std::string& path, const CheckVerdict& verdict);
std::optional<CheckVerdict> read_verdict(const std::string& path);

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
  std::string last_case() const;
  // Where it ended without a verdict (a crash, a heap that PoCL's runtime
  // found corrupt): a FAIL naming the case, the signal and its last words.
  CheckVerdict crash_verdict(const std::string& where) const;
};

// Runs `ladder check EXERCISE --variants RUNG` in a child process, after
// `wrapper` (e.g. "oclgrind --data-races "), simulated or not.
ChildCheck check_in_child(const Arguments& args, const std::string& exercise, const std::string& rung,
                          const std::string& track, const std::string& wrapper, bool simulated,
                          const std::filesystem::path& scratch);

// Checks an MPI rung (mpi, cuda_nccl) as `ranks` ranks in a job of its own,
// under mpirun, watched (ladder/mpi_job.hpp): an MPI error, a hang or a rank
// that dies is that rung's FAIL, with its case, and only ladder speaks.
// With `timed_size`, a rung that passes is timed there too.
CheckVerdict check_in_mpi_job(const Arguments& args, const std::string& exercise, const std::string& rung,
                              const std::string& track, int ranks, const std::string& timed_size,
                              const std::filesystem::path& scratch);

// The check's verdicts, handed in to the class folder: each rung's verdict,
// its words, its time and the solution's where timed, and the checksums of
// its files; `on_oclgrind` for the race check's (nothing timed). A failure
// to write is said, and changes nothing else.
void hand_in_check(const ClassFolder& to, const Arguments& args, const Problem& problem, const std::string& size,
                   const std::vector<std::string>& rungs, const std::map<std::string, CheckVerdict>& verdicts,
                   bool on_oclgrind = false);

// The check's last line; its exit status: 1 where a rung failed.
int print_summary(std::map<CheckVerdict::Kind, int> counts);

// `ladder check EXERCISE --race` (check_race.cpp).
int check_for_races(const Arguments& args);

}  // namespace ladder::cli
