// The supervisor of `--ranks N` (ladder/mpi_job.hpp): mpirun as a child
// process, its output read through a pipe, the job's board read every
// 100 ms.
#include "ladder/mpi_job.hpp"

#include <mpi.h>  // for OPEN_MPI: which launcher's options to give
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <regex>

#include "ladder/error.hpp"

namespace ladder {

std::string MpiJob::describe() const {
  if (!problem) return "";
  const std::string kind = problem->kind == JobProblem::not_implemented ? "not implemented" : "FAIL";
  return kind + ": " + (rung.empty() ? "the MPI job" : rung) + (case_text.empty() ? "" : " on case " + case_text) +
         ": " + problem->text;
}

namespace {

// A job folder of its own, removed at the end: the board lives there.
struct JobFolder {
  std::filesystem::path path;
  JobFolder() {
    static std::atomic<int> jobs{0};
    path = std::filesystem::temp_directory_path() /
           ("ladder-job-" + std::to_string(getpid()) + "-" + std::to_string(jobs++));
    std::filesystem::create_directories(path);
  }
  ~JobFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

std::string this_program() {
  char self[4096];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length <= 0) throw UsageError("--ranks: cannot tell where this ladder program is (/proc/self/exe)");
  return std::string(self, static_cast<std::size_t>(length));
}

std::vector<std::string> mpirun_command(int ranks, const std::vector<std::string>& args,
                                        const std::vector<std::pair<std::string, std::string>>& environment) {
  std::vector<std::string> command = {"mpirun", "-np", std::to_string(ranks)};
#ifdef OPEN_MPI
  command.push_back("--oversubscribe");  // more ranks than cores is allowed, if slow
  // No binding to a core: rank 0 also runs the openmp rungs, which want every core (bound, they got one).
  command.insert(command.end(), {"--bind-to", "none"});
  // Each rank's lines marked "[1,rank]<stdout>:", so that the launcher's own are told apart.
  command.push_back("--tag-output");
  for (const auto& [name, value] : environment) command.insert(command.end(), {"-x", name});  // to other machines too
#endif
  command.push_back(this_program());
  command.insert(command.end(), args.begin(), args.end());
  return command;
}

// What the launcher says of a rank that died: Open MPI's
// "mpirun noticed that process rank 1 with PID 4242 on node x exited on signal 9 (Killed)."
struct Death {
  int rank = -1;
  std::string signal;
};
std::optional<Death> death_in(const std::string& line) {
  static const std::regex said(R"(process rank (\d+) with PID \d+ on node \S+ exited on signal (\d+) \(([^)]*)\))");
  std::smatch match;
  if (!std::regex_search(line, match, said)) return std::nullopt;
  return Death{std::stoi(match[1]), "signal " + match[2].str() + " (" + match[3].str() + ")"};
}

}  // namespace

MpiJob run_mpi_job(int ranks, const std::vector<std::string>& args, bool pass_output,
                   const std::vector<std::pair<std::string, std::string>>& environment) {
  JobFolder folder;
  const std::string board_file = (folder.path / "board").string();
  const auto board = JobBoard::create(board_file, ranks);
  std::vector<std::pair<std::string, std::string>> variables = environment;
  variables.emplace_back(kJobBoardVariable, board_file);
#ifdef OPEN_MPI
  // Open MPI refuses to run as root unless told: containers and CI often are root.
  if (geteuid() == 0)
    for (const char* name : {"OMPI_ALLOW_RUN_AS_ROOT", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"})
      if (!std::getenv(name)) variables.emplace_back(name, "1");
#endif
  std::vector<std::string> command = mpirun_command(ranks, args, variables);

  int pipe_ends[2];
  if (pipe(pipe_ends) != 0) throw DeviceError(std::string("--ranks: pipe: ") + std::strerror(errno));
  std::cout.flush(), std::cerr.flush();
  const pid_t launcher = fork();
  if (launcher < 0) throw DeviceError(std::string("--ranks: fork: ") + std::strerror(errno));
  if (launcher == 0) {
    dup2(pipe_ends[1], STDOUT_FILENO), dup2(pipe_ends[1], STDERR_FILENO);
    close(pipe_ends[0]), close(pipe_ends[1]);
    for (const auto& [name, value] : variables) setenv(name.c_str(), value.c_str(), 1);
    std::vector<char*> argv;
    for (auto& word : command) argv.push_back(word.data());
    argv.push_back(nullptr);
    execvp("mpirun", argv.data());
    std::fprintf(stderr, "ladder: --ranks: could not start mpirun (%s; Debian: apt-get install openmpi-bin)\n",
                 std::strerror(errno));
    std::_Exit(127);
  }
  close(pipe_ends[1]);

  MpiJob job;
  std::vector<std::string> launcher_lines;
  std::optional<Death> death;
  // A rank's line starts "[1,rank]<stdout>:"; Open MPI tags each piece a
  // rank writes, so a line written in pieces (or a "\r" progress line) has
  // tags inside it too.
  static const std::regex tag(R"(\[\d+,\d+\]<(stdout|stderr)>:)");
  auto take_line = [&](const std::string& line) {
    std::smatch match;
#ifdef OPEN_MPI
    const bool from_rank = std::regex_search(line, match, tag) && match.position(0) == 0;
#else
    const bool from_rank = true;  // other launchers' own lines cannot be told apart
#endif
    if (!from_rank) {
      launcher_lines.push_back(line);
      if (!death) death = death_in(line);
      return;
    }
    const bool to_stderr = match.size() > 1 && match[1] == "stderr";
    const std::string text = std::regex_replace(line, tag, "");
    if (!pass_output)
      job.output.push_back(text);
    else
      (to_stderr ? std::cerr : std::cout) << text << '\n' << std::flush;
  };

  std::string pending;
  bool output_open = true, exited = false;
  int status = 0;
  std::optional<std::chrono::steady_clock::time_point> stopping;  // since the supervisor began to stop the job
  while (output_open || !exited) {
    pollfd reading{pipe_ends[0], POLLIN, 0};
    if (output_open && poll(&reading, 1, 100) > 0) {
      char chunk[4096];
      const ssize_t n = read(pipe_ends[0], chunk, sizeof chunk);
      if (n <= 0) {
        output_open = false;
      } else {
        pending.append(chunk, static_cast<std::size_t>(n));
        for (std::size_t end; (end = pending.find('\n')) != std::string::npos; pending.erase(0, end + 1))
          take_line(pending.substr(0, end));
      }
    } else if (!output_open) {
      usleep(100000);
    }
    if (!exited && waitpid(launcher, &status, WNOHANG) == launcher) exited = true;
    if (exited) continue;

    // A hang, or a TODO that only some ranks reached: the supervisor stops
    // the job. (A rank that failed stops it itself; a dead rank, the launcher.)
    if (!stopping) {
      const JobBoard::View view = board->view();
      if (auto problem = problem_on_board(view, true); problem && problem->kind != JobProblem::failed) {
        job.problem = problem, job.rung = view.rung, job.case_text = view.case_text;
        stopping = std::chrono::steady_clock::now();
        kill(launcher, SIGTERM);  // mpirun ends its ranks
      }
    } else if (std::chrono::steady_clock::now() - *stopping > std::chrono::seconds(5)) {
      kill(launcher, SIGKILL);
    }
  }
  if (!pending.empty()) take_line(pending);
  close(pipe_ends[0]);

  // No process of the job is left behind, whatever became of mpirun.
  const JobBoard::View view = board->view();
  for (const auto& rank : view.ranks)
    if (rank.pid > 0 && rank.state != RankState::finished) kill(static_cast<pid_t>(rank.pid), SIGKILL);

  job.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (!job.problem) {
    job.rung = view.rung, job.case_text = view.case_text;
    if (auto failed = problem_on_board(view, false)) {
      job.problem = failed;
    } else if (death && death->rank >= 0 && death->rank < static_cast<int>(view.ranks.size())) {
      const auto& rank = view.ranks[static_cast<std::size_t>(death->rank)];
      job.problem = JobProblem{JobProblem::died, "rank " + std::to_string(death->rank) + " of " +
                                                     std::to_string(view.ranks.size()) + " died on " + death->signal +
                                                     " in " + job_step_name(rank.step)};
    } else if (job.status != 0) {
      bool started = false;
      for (const auto& rank : view.ranks) started |= rank.pid > 0;
      // The launcher's words are the only ones where no rank started.
      std::string said;
      for (const auto& line : launcher_lines)
        if (!line.empty() && line.find_first_not_of("-") != std::string::npos && said.size() < 800) said += "\n  " + line;
      if (!started)
        job.problem = JobProblem{JobProblem::failed, "mpirun could not start the job (exit status " +
                                                         std::to_string(job.status) + ")" +
                                                         (said.empty() ? "" : "; it said:" + said)};
    }
  }
  return job;
}

}  // namespace ladder
