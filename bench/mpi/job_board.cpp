// The job board (ladder/job_board.hpp): a file of fixed slots, mapped
// shared by the ranks on one machine and the job's watcher.
#include "ladder/job_board.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "ladder/error.hpp"

namespace ladder {

namespace {

constexpr std::size_t kTextBytes = 480;

// Text fields are written by one process while none reads them (a case is
// set before its rung's first step; a failure before the rank stops), and
// always end in a zero.
void put_text(char* field, const std::string& text) {
  const std::size_t n = std::min(text.size(), kTextBytes - 1);
  std::memcpy(field, text.data(), n);
  field[n] = '\0';
}

std::int64_t now_ns() {
  // CLOCK_MONOTONIC is the machine's: comparable between processes.
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

// Atomics of 8 bytes are lock-free on every machine this builds for, so
// they work between processes.
static_assert(std::atomic<std::int64_t>::is_always_lock_free);

struct JobBoard::Layout {
  struct Slot {
    std::atomic<std::int64_t> pid, step, generation, done, state;
    char text[kTextBytes];
  };
  std::atomic<std::int64_t> ranks, limit_ns, since_ns;  // since: when rank 0 entered its step
  char rung[kTextBytes], case_text[kTextBytes];
  Slot slots[1];  // `ranks` of them
  static std::size_t bytes(int ranks) { return sizeof(Layout) + sizeof(Slot) * (static_cast<std::size_t>(ranks) - 1); }
};

std::string job_step_name(JobStep step) {
  switch (step) {
    case JobStep::prepare: return "the prepare step (prepare_ranks)";
    case JobStep::upload: return "the upload step (scatter)";
    case JobStep::compute: return "the compute step (compute_ranks)";
    case JobStep::download: return "the download step (gather)";
    case JobStep::collect: return "the collect step (collect_for_check)";
    case JobStep::probe: return "the communication probe";
    case JobStep::idle: break;
  }
  return "between steps";
}

JobBoard::JobBoard(std::string path, Layout* layout, std::size_t bytes, bool owner)
    : path_(std::move(path)), layout_(layout), bytes_(bytes), owner_(owner) {}

JobBoard::~JobBoard() {
  munmap(layout_, bytes_);
  if (owner_) unlink(path_.c_str());
}

std::unique_ptr<JobBoard> JobBoard::create(const std::string& path, int ranks) {
  const std::size_t bytes = Layout::bytes(ranks);
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  if (fd < 0) throw DeviceError("the MPI job's board " + path + ": " + std::strerror(errno));
  void* memory = ftruncate(fd, static_cast<off_t>(bytes)) == 0
                     ? mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                     : MAP_FAILED;
  ::close(fd);
  if (memory == MAP_FAILED) {
    unlink(path.c_str());
    throw DeviceError("the MPI job's board " + path + ": " + std::strerror(errno));
  }
  auto* layout = static_cast<Layout*>(memory);  // the file is zeros: every field starts at 0
  layout->ranks = ranks;
  return std::unique_ptr<JobBoard>(new JobBoard(path, layout, bytes, true));
}

std::unique_ptr<JobBoard> JobBoard::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR);
  if (fd < 0) return nullptr;
  const off_t bytes = lseek(fd, 0, SEEK_END);
  void* memory = bytes >= static_cast<off_t>(sizeof(Layout))
                     ? mmap(nullptr, static_cast<std::size_t>(bytes), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                     : MAP_FAILED;
  ::close(fd);
  if (memory == MAP_FAILED) return nullptr;
  auto* layout = static_cast<Layout*>(memory);
  if (Layout::bytes(static_cast<int>(layout->ranks)) != static_cast<std::size_t>(bytes)) {
    munmap(memory, static_cast<std::size_t>(bytes));
    return nullptr;
  }
  return std::unique_ptr<JobBoard>(new JobBoard(path, layout, static_cast<std::size_t>(bytes), false));
}

int JobBoard::ranks() const { return static_cast<int>(layout_->ranks); }

void JobBoard::set_case(const std::string& rung, const std::string& case_text, double limit_s) {
  put_text(layout_->rung, rung);
  put_text(layout_->case_text, case_text);
  layout_->limit_ns = static_cast<std::int64_t>(limit_s * 1e9);
}

void JobBoard::join(int rank) {
  if (rank < 0 || rank >= ranks()) return;
  layout_->slots[rank].pid = getpid();
}

void JobBoard::enter(int rank, JobStep step) {
  if (rank < 0 || rank >= ranks()) return;
  auto& slot = layout_->slots[rank];
  if (rank == 0) layout_->since_ns = now_ns();
  slot.generation += 1;  // the same count on every rank: the ranks take the same steps
  slot.step = static_cast<std::int64_t>(step);
}

void JobBoard::leave(int rank) {
  if (rank < 0 || rank >= ranks()) return;
  auto& slot = layout_->slots[rank];
  slot.done = slot.generation.load();
}

void JobBoard::idle(int rank) {
  if (rank < 0 || rank >= ranks()) return;
  layout_->slots[rank].step = static_cast<std::int64_t>(JobStep::idle);
}

void JobBoard::stop(int rank, RankState state, const std::string& text) {
  if (rank < 0 || rank >= ranks()) return;
  auto& slot = layout_->slots[rank];
  put_text(slot.text, text);
  slot.state = static_cast<std::int64_t>(state);
}

JobBoard::View JobBoard::view() const {
  View view;
  view.rung = std::string(layout_->rung, strnlen(layout_->rung, kTextBytes));
  view.case_text = std::string(layout_->case_text, strnlen(layout_->case_text, kTextBytes));
  const auto& first = layout_->slots[0];
  view.step = static_cast<JobStep>(first.step.load());
  const std::int64_t generation = first.generation;
  view.seconds_in_step = (now_ns() - layout_->since_ns) * 1e-9;
  view.limit_s = layout_->limit_ns * 1e-9;
  for (int r = 0; r < ranks(); ++r) {
    const auto& slot = layout_->slots[r];
    RankView rank;
    rank.rank = r;
    rank.pid = slot.pid;
    rank.step = static_cast<JobStep>(slot.step.load());
    rank.finished_step = slot.done >= generation;
    rank.state = static_cast<RankState>(slot.state.load());
    rank.text = std::string(slot.text, strnlen(slot.text, kTextBytes));
    view.ranks.push_back(rank);
  }
  return view;
}

namespace {

// "ranks 0 and 2", "rank 1"
std::string rank_list(const std::vector<int>& ranks) {
  std::string text = ranks.size() == 1 ? "rank " : "ranks ";
  for (std::size_t i = 0; i < ranks.size(); ++i)
    text += (i == 0 ? "" : i + 1 == ranks.size() ? " and " : ", ") + std::to_string(ranks[i]);
  return text;
}

}  // namespace

std::optional<JobProblem> problem_on_board(const JobBoard::View& view, bool hang_allowed) {
  // A rank that failed (an MPI error, an exception) says so itself.
  for (const auto& rank : view.ranks)
    if (rank.state == RankState::failed) return JobProblem{JobProblem::failed, rank.text};
  if (!hang_allowed || view.step == JobStep::idle || view.limit_s <= 0 || view.seconds_in_step < view.limit_s)
    return std::nullopt;
  std::vector<int> finished, inside, at_todo;
  for (const auto& rank : view.ranks) {
    (rank.finished_step ? finished : inside).push_back(rank.rank);
    if (rank.state == RankState::todo) at_todo.push_back(rank.rank);
  }
  if (inside.empty()) return std::nullopt;  // the step is ending: the ranks are agreeing on it
  const std::string step = job_step_name(view.step);
  // A rank that stopped at a LADDER_TODO while another waits for it: the
  // rung is not written yet, and the TODO is where only some ranks reach.
  if (!at_todo.empty()) {
    const auto& todo = view.ranks[static_cast<std::size_t>(at_todo.front())];
    return JobProblem{JobProblem::not_implemented,
                      todo.text + " (reached on " + rank_list(at_todo) + " in " + step + ", while " +
                          rank_list(inside) + " waited for " + (at_todo.size() == 1 ? "it" : "them") +
                          ": put the LADDER_TODO where every rank reaches it)"};
  }
  char limit[32];
  std::snprintf(limit, sizeof limit, "%.0f", view.limit_s);
  return JobProblem{JobProblem::hang,
                    "hang: " + step + " made no progress in " + limit + " s: " +
                        (finished.empty() ? "no rank finished it" : rank_list(finished) + " finished it") + ", " +
                        rank_list(inside) + " did not" +
                        ". The usual causes: a receive whose send is never posted, a collective not called on every "
                        "rank (or with another root or count), blocking sends both ways (--hang-limit S to wait longer)"};
}

std::optional<JobBoard::RankView> dead_rank(const JobBoard::View& view) {
  for (const auto& rank : view.ranks)
    if (rank.pid > 0 && rank.state != RankState::finished && kill(static_cast<pid_t>(rank.pid), 0) != 0 &&
        errno == ESRCH)
      return rank;
  return std::nullopt;
}

double default_step_limit(double array_bytes) { return 10 + array_bytes / 20e6; }

}  // namespace ladder
