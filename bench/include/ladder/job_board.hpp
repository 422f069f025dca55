#pragma once
// The job board: where each rank of an MPI job says which step of which
// rung it is in, so that a job that goes wrong ends in a verdict instead of
// a hang or a launcher's abort (docs/design.md, "When the MPI code goes
// wrong").
//
// A small file mapped into the memory of every rank on the machine and of
// whoever watches the job: `ladder ... --ranks N`, which starts mpirun and
// supervises it (mpi_job.cpp), or, under a launcher of the user's own
// (mpirun, srun), a thread of rank 0. A rank writes its slot with atomic
// stores, nanoseconds each, so a timed step costs nothing more. The board
// holds no MPI: it is read after the ranks are gone.
//
// Steps are counted alike on every rank (each takes the steps rank 0
// announces, in order, and ends each together with the others), so "rank
// r finished step g" is `done >= g` in its slot, and a step that rank 0
// started more than the limit ago and some rank has not finished is a hang.
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ladder {

// The environment variable that gives the ranks the board's file, set by
// the supervisor of `--ranks` (unset: rank 0 makes and watches one).
constexpr const char* kJobBoardVariable = "LADDER_JOB_BOARD";

// A step of an MPI rung (MpiRung), or the communication probe.
enum class JobStep : std::int64_t { idle = 0, prepare, upload, compute, download, probe, collect };
// "the compute step (compute_ranks)": what a verdict calls the step.
std::string job_step_name(JobStep step);

// Why a rank stopped: a LADDER_TODO reached (not implemented), or a failure.
enum class RankState : std::int64_t { running = 0, todo, failed, finished };

class JobBoard {
 public:
  // Made by the job's watcher before any rank starts; `path` must not exist.
  static std::unique_ptr<JobBoard> create(const std::string& path, int ranks);
  // Opened by a rank; nullptr where it cannot be (a rank on another machine).
  static std::unique_ptr<JobBoard> open(const std::string& path);
  ~JobBoard();
  JobBoard(const JobBoard&) = delete;
  JobBoard& operator=(const JobBoard&) = delete;

  int ranks() const;
  const std::string& path() const { return path_; }

  // Rank 0: the rung and the case now run, and how long a step may take.
  void set_case(const std::string& rung, const std::string& case_text, double limit_s);
  // Every rank: its process, each step's start and end, why it stopped.
  void join(int rank);
  void enter(int rank, JobStep step);
  void leave(int rank);      // its own part of the step is done
  void idle(int rank);       // the step is over on every rank (they agreed)
  void stop(int rank, RankState state, const std::string& text);

  // What a watcher reads.
  struct RankView {
    int rank = 0;
    long long pid = 0;
    JobStep step = JobStep::idle;
    bool finished_step = false;  // of the step rank 0 is in
    RankState state = RankState::running;
    std::string text;            // the LADDER_TODO's message or the failure
  };
  struct View {
    std::string rung, case_text;
    JobStep step = JobStep::idle;  // rank 0's
    double seconds_in_step = 0, limit_s = 0;
    std::vector<RankView> ranks;
  };
  View view() const;

 private:
  struct Layout;
  JobBoard(std::string path, Layout* layout, std::size_t bytes, bool owner);
  std::string path_;
  Layout* layout_;
  std::size_t bytes_;
  bool owner_;  // removes the file at the end
};

// What went wrong in a job, read from its board, in words for a verdict:
// a rank that failed, or (where `hang_allowed`) a step past its limit that
// some rank has not finished; nullopt where the board shows nothing wrong.
struct JobProblem {
  enum Kind { failed, not_implemented, hang, died } kind;
  std::string text;
};
std::optional<JobProblem> problem_on_board(const JobBoard::View& view, bool hang_allowed);
// A rank whose process is gone although it never said it finished (on this
// machine: a pid the board holds), and what it was doing.
std::optional<JobBoard::RankView> dead_rank(const JobBoard::View& view);

// The default limit on one step: 10 s (a check's cases are small) and a
// second more per 20 MB of the case's arrays; `--hang-limit S` sets it.
double default_step_limit(double array_bytes);

}  // namespace ladder
