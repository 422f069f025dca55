// The MPI backend: rank 0 runs the harness, the other ranks follow it
// (ladder/mpi.hpp). Every announcement is one broadcast from rank 0: a step
// and, for `make`, the rung's names and parameters as JSON.
#include "ladder/mpi.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "ladder/backends.hpp"
#include "ladder/error.hpp"
#include "ladder/job_board.hpp"
#include "ladder/mpi_job.hpp"

namespace ladder {

// Launched by mpirun (Open MPI or any PMIx launcher) rather than run alone.
bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMIX_RANK") != nullptr;
}

namespace {

int world_rank() {
  int rank = 0;
  LADDER_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  return rank;
}

int world_size() {
  int size = 1;
  LADDER_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  return size;
}

// On rank 0, at exit: the other ranks are told to stop, then MPI ends.
void finish_on_rank_zero();

// What this rank is doing, for the verdicts when something goes wrong
// (ladder/job_board.hpp): the board (where the job has one), the rung and
// the case, the step.
struct JobState {
  std::shared_ptr<JobBoard> board;  // shared with rank 0's watcher, which outlives this at exit
  int ranks_here = 1;        // the job's ranks on this machine
  bool watched = false;      // by `--ranks`'s supervisor, which words the verdicts
  std::string rung = "an MPI rung", case_text;
  std::string next_case;     // set_mpi_case() for the next rung made
  double hang_limit_s = 0;   // --hang-limit; 0: default_step_limit()
  JobStep step = JobStep::idle;
};
JobState job;

// "MPI_Gatherv failed on rank 1 of 2 in the download step (gather) of
// convolution's mpi rung": where a failure happened, for its verdict.
std::string failure_place(const std::string& what) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  return what + " on rank " + std::to_string(rank) + " of " + std::to_string(ranks) + " in " +
         job_step_name(job.step);
}

// A failure on one rank while the others wait in a collective would hang
// the job: it is put on the board (the supervisor words the verdict), or,
// under a launcher of the user's own, said here; then every rank is stopped.
[[noreturn]] void stop_job(const std::string& failure) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (job.board) job.board->stop(rank, RankState::failed, failure);
  // One write of the whole line: std::cerr writes each << at once, and
  // mpirun's MPI_ABORT banner, forwarded beside it, could split the verdict.
  if (!job.watched)
    std::cerr << "ladder: FAIL: " + job.rung + (job.case_text.empty() ? "" : " on case " + job.case_text) + ": " +
                     failure + "; stopping every rank\n"
              << std::flush;
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);
}

// Every MPI error on MPI_COMM_WORLD (and the communicators made from it),
// the participant's own calls included: MPI_ERRORS_ARE_FATAL would end the
// job with the launcher's words only; this names the call, the rank and the
// step. Open MPI passes the call's name after the error code.
void on_mpi_error(MPI_Comm*, int* code, ...) {
  std::string call = "an MPI call";
#ifdef OPEN_MPI
  va_list rest;
  va_start(rest, code);
  const char* name = va_arg(rest, const char*);
  va_end(rest);
  if (name != nullptr && std::strncmp(name, "MPI_", 4) == 0) call = name;
#endif
  char message[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(*code, message, &length);
  stop_job(failure_place(call + " failed") + ": " + std::string(message, static_cast<std::size_t>(length)));
}

// Under a launcher of the user's own (no supervisor), rank 0 watches the
// board itself: a step past its limit, or a rank gone, ends the job with
// one line.
void watch_board_from_rank_zero() {
  std::thread([board = job.board] {
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      const JobBoard::View view = board->view();
      std::string said;
      if (const auto problem = problem_on_board(view, true); problem && problem->kind != JobProblem::failed)
        said = (problem->kind == JobProblem::hang ? "FAIL: " : "not implemented: ") + view.rung + " on case " +
               view.case_text + ": " + problem->text;
      else if (const auto dead = dead_rank(view))
        said = "FAIL: " + view.rung + " on case " + view.case_text + ": rank " + std::to_string(dead->rank) +
               " died in " + job_step_name(dead->step);
      if (said.empty()) continue;
      std::cerr << "ladder: " << said << "; stopping every rank\n" << std::flush;
      std::_Exit(1);  // the launcher ends the other ranks
    }
  }).detach();
}

// The board: the supervisor's (LADDER_JOB_BOARD), or under another
// launcher one that rank 0 makes in the temporary folder and watches.
void join_board() {
  const int rank = world_rank(), ranks = world_size();
  if (const char* path = std::getenv(kJobBoardVariable); path && *path) {
    job.board = JobBoard::open(path);
    job.watched = true;
  } else if (ranks > 1) {
    std::string path;
    if (rank == 0) {
      path = (std::filesystem::temp_directory_path() / ("ladder-job-" + std::to_string(getpid()) + ".board")).string();
      job.board = JobBoard::create(path, ranks);
    }
    long long length = static_cast<long long>(path.size());
    LADDER_MPI(MPI_Bcast(&length, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD));
    path.resize(static_cast<std::size_t>(length));
    LADDER_MPI(MPI_Bcast(path.data(), static_cast<int>(length), MPI_CHAR, 0, MPI_COMM_WORLD));
    if (rank != 0) job.board = JobBoard::open(path);  // nullptr on another machine: that rank is not watched
    // Once every rank has it mapped, the file's name is not needed: removed
    // now, it is not left behind however the job ends.
    LADDER_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) std::filesystem::remove(path);
    if (rank == 0) watch_board_from_rank_zero();
  }
  if (job.board) job.board->join(rank);
  // How many of the job's ranks share this machine (a GPU each, for
  // cuda_nccl): asked of MPI, which every launcher answers (srun sets no
  // OMPI_COMM_WORLD_LOCAL_SIZE).
  MPI_Comm node;
  LADDER_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
  LADDER_MPI(MPI_Comm_size(node, &job.ranks_here));
  LADDER_MPI(MPI_Comm_free(&node));
}

// MPI is started once per process: at start-up under mpirun, else by the
// first MpiRung (a job of one rank, as `ladder check` without mpirun is).
void ensure_mpi() {
  int started = 0;
  LADDER_MPI(MPI_Initialized(&started));
  if (started) return;
  int provided = 0;
  LADDER_MPI(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided));
  MPI_Errhandler handler;
  LADDER_MPI(MPI_Comm_create_errhandler(on_mpi_error, &handler));
  LADDER_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler));
  join_board();
  if (world_rank() == 0) std::atexit(finish_on_rank_zero);
}

struct Announcement {
  MpiRung::Step step;
  std::string text;
};

// Rank 0's side of an announcement. Nonblocking broadcasts on both sides:
// a blocking and a nonblocking collective do not match in MPI.
void announce(MpiRung::Step step, const std::string& text = "") {
  long long header[2] = {static_cast<long long>(step), static_cast<long long>(text.size())};
  MPI_Request request;
  LADDER_MPI(MPI_Ibcast(header, 2, MPI_LONG_LONG, 0, MPI_COMM_WORLD, &request));
  LADDER_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  if (!text.empty())
    LADDER_MPI(MPI_Bcast(const_cast<char*>(text.data()), static_cast<int>(text.size()), MPI_CHAR, 0, MPI_COMM_WORLD));
}

// The other ranks' side. While announcements come quickly (a rung's timed
// repetitions) it spins, so that a step starts within microseconds; after a
// second without one it sleeps between polls, so that a rank waiting through
// the other rungs' runs does not take a core from them.
Announcement await_announcement() {
  long long header[2] = {0, 0};
  MPI_Request request;
  LADDER_MPI(MPI_Ibcast(header, 2, MPI_LONG_LONG, 0, MPI_COMM_WORLD, &request));
  const auto since = std::chrono::steady_clock::now();
  for (int done = 0; !done;) {
    LADDER_MPI(MPI_Test(&request, &done, MPI_STATUS_IGNORE));
    if (!done && std::chrono::steady_clock::now() - since > std::chrono::seconds(1))
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  Announcement announcement{static_cast<MpiRung::Step>(header[0]), std::string(header[1], '\0')};
  if (header[1] > 0)
    LADDER_MPI(MPI_Bcast(announcement.text.data(), static_cast<int>(header[1]), MPI_CHAR, 0, MPI_COMM_WORLD));
  return announcement;
}

void finish_on_rank_zero() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  if (world_size() > 1) announce(MpiRung::Step::quit);
  if (job.board) job.board->stop(0, RankState::finished, "");
  MPI_Finalize();
}

// An exception on a rank of several: the job is stopped (stop_job).
[[noreturn]] void abort_job(const std::exception& error) { stop_job(failure_place("failed") + ": " + error.what()); }

// "Not implemented" on every rank or none (issue 47). A participant's rung
// throws NotImplemented (LADDER_TODO) on each rank that reaches the line:
// maybe all of them, maybe some. So after each step the ranks agree: an
// allreduce gives every rank the lowest rank that stopped at a LADDER_TODO
// (`ranks` where none did), and that rank's message is broadcast. Rank 0
// then throws NotImplemented to the harness, which reports it as for any
// rung; the other ranks go back to waiting for rank 0, which destroys the
// rung. No rank aborts.
//
// The allreduce ends only once every rank has given its part, so it also
// ends the step when the slowest rank does (compute's time is that rank's).
// A rank that stopped may be one the others still wait for (a message it
// never sent): the job's watcher sees that on the board within the step's
// limit and calls the rung not implemented, saying why. Where nobody
// watches (ranks on another machine), the rank waits kTodoPatience at
// most, then stops the job, so that even then nothing hangs. Nonblocking
// on every rank: a blocking and a nonblocking collective do not match.
constexpr auto kTodoPatience = std::chrono::seconds(60);

void agree_on_todos(const std::string& where, const std::optional<std::string>& todo) {
  const int rank = world_rank(), ranks = world_size();
  int mine = todo ? rank : ranks, first = ranks;
  MPI_Request request;
  LADDER_MPI(MPI_Iallreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &request));
  const auto since = std::chrono::steady_clock::now();
  for (int done = 0; !done;) {
    LADDER_MPI(MPI_Test(&request, &done, MPI_STATUS_IGNORE));
    if (done || !todo) continue;  // a rank that went through its step waits as long as the others take
    if (std::chrono::steady_clock::now() - since > kTodoPatience)
      stop_job(*todo + "; the other ranks did not end " + where + " within " + std::to_string(kTodoPatience.count()) +
               " s, waiting, it seems, for this rank: put the LADDER_TODO where every rank reaches it");
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (first == ranks) return;  // nobody stopped: the step is done
  std::string text = rank == first ? *todo : "";
  long long length = static_cast<long long>(text.size());
  LADDER_MPI(MPI_Bcast(&length, 1, MPI_LONG_LONG, first, MPI_COMM_WORLD));
  text.resize(static_cast<std::size_t>(length));
  LADDER_MPI(MPI_Bcast(text.data(), static_cast<int>(length), MPI_CHAR, first, MPI_COMM_WORLD));
  if (rank != 0) return;
  if (first != 0) text += " (reached on rank " + std::to_string(first) + " of " + std::to_string(ranks) + ")";
  throw NotImplemented(text);
}

}  // namespace

void mpi_check(int status, const char* call) {
  if (status == MPI_SUCCESS) return;
  char message[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(status, message, &length);
  throw DeviceError(std::string(call) + " failed: " + std::string(message, length));
}

Part part_of(long long n, int rank, int ranks) {
  const long long base = n / ranks, extra = n % ranks;
  const long long begin = rank * base + std::min<long long>(rank, extra);
  return {begin, begin + base + (rank < extra ? 1 : 0)};
}

Parts parts_of(long long n, int ranks) {
  Parts parts;
  for (int r = 0; r < ranks; ++r) {
    const Part part = part_of(n, r, ranks);
    if (part.end > std::numeric_limits<int>::max())
      throw UsageError("MPI counts in int: " + std::to_string(n) + " items are too many to share as they are");
    parts.counts.push_back(static_cast<int>(part.size()));
    parts.offsets.push_back(static_cast<int>(part.begin));
  }
  return parts;
}

std::string host_cpu_model();  // host_rung.cpp

Availability mpi_availability() { return {true, ""}; }

void set_mpi_case(const std::string& text) { job.next_case = text; }
void set_mpi_hang_limit(double seconds) { job.hang_limit_s = seconds; }

namespace {

// The input files in the `make` announcement, so that every rank knows them.
nlohmann::json input_files_as_json(const std::map<std::string, InputFile>& files) {
  nlohmann::json json = nlohmann::json::object();
  for (const auto& [name, file] : files)
    json[name] = {{"path", file.path},
                  {"data_offset", file.data_offset},
                  {"dtype", static_cast<int>(file.array.dtype)},
                  {"shape", file.array.shape}};
  return json;
}

std::map<std::string, InputFile> input_files_of(const nlohmann::json& json) {
  std::map<std::string, InputFile> files;
  for (const auto& [name, file] : json.items())
    files[name] = {file.at("path").get<std::string>(), file.at("data_offset").get<std::uint64_t>(),
                   {static_cast<DType>(file.at("dtype").get<int>()), file.at("shape").get<std::vector<std::size_t>>()}};
  return files;
}

}  // namespace

MpiRung::MpiRung(const RungContext& context) : input_files_(context.options.input_files) {
  ensure_mpi();
  rank_ = world_rank();
  ranks_ = world_size();
  // What a verdict calls this rung and its case: the check's words for the
  // case where it gave them (set_mpi_case), else the parameters.
  job.rung = context.exercise + "'s " + context.rung + " rung" +
             (context.track == kExercisesTrack ? " (exercises track)" : "");
  job.case_text = job.next_case;
  if (job.case_text.empty())
    for (const auto& [key, value] : context.params.values())
      job.case_text += (job.case_text.empty() ? "" : " ") + key + "=" + value;
  if (job.board) job.board->stop(rank_, RankState::running, "");
  if (rank_ == 0 && ranks_ > 1) {
    const nlohmann::json made = {{"exercise", context.exercise}, {"rung", context.rung},
                                 {"track", context.track},       {"params", context.params.values()},
                                 {"threads", context.options.threads},
                                 {"input_files", input_files_as_json(input_files_)}};
    announce(Step::make, made.dump());
  }
}

MpiRung::~MpiRung() { release_other_ranks(); }

std::optional<InputFile> MpiRung::input_file(const std::string& name) const {
  const auto found = input_files_.find(name);
  return found == input_files_.end() ? std::nullopt : std::optional<InputFile>(found->second);
}

void MpiRung::release_other_ranks() {
  if (rank_ != 0 || ranks_ == 1 || released_) return;
  released_ = true;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) announce(Step::destroy);
}

void MpiRung::take_step(Step step, const Arrays* inputs, Arrays* outputs) {
  if (rank_ == 0 && ranks_ > 1) announce(step);
  job.step = step == Step::prepare    ? JobStep::prepare
             : step == Step::upload   ? JobStep::upload
             : step == Step::compute  ? JobStep::compute
             : step == Step::download ? JobStep::download
             : step == Step::collect  ? JobStep::collect
                                      : JobStep::idle;
  if (job.board) job.board->enter(rank_, job.step);
  const std::string where = job_step_name(job.step);
  std::optional<std::string> todo;  // this rank stopped at a LADDER_TODO, with its message
  try {
    switch (step) {
      case Step::prepare: prepare_ranks(inputs, outputs); break;
      case Step::upload: scatter(); break;
      // With several ranks, agree_on_todos below ends the step when the
      // slowest rank does: compute's time is that rank's, not rank 0's.
      case Step::compute: compute_ranks(); break;
      case Step::download: gather(); break;
      case Step::collect: collect_for_check(); break;
      default: break;
    }
  } catch (const NotImplemented& error) {
    if (ranks_ == 1) throw;
    todo = error.what();
    if (job.board) job.board->stop(rank_, RankState::todo, *todo);
  } catch (const std::exception& error) {
    if (ranks_ == 1) throw;  // alone, nobody waits: the harness reports it as any rung's failure
    abort_job(error);
  }
  if (job.board) job.board->leave(rank_);
  if (ranks_ > 1) agree_on_todos(where, todo);  // throws NotImplemented on rank 0 where any rank stopped
  if (job.board) job.board->idle(rank_);
  job.step = JobStep::idle;
}

void MpiRung::prepare(const Arrays& inputs, Arrays& outputs) {
  // Rank 0 puts the case on the board, and the limit on a step, from the size of its arrays.
  double bytes = 0;
  for (const Arrays* arrays : {&inputs, static_cast<const Arrays*>(&outputs)})
    for (const auto& [name, array] : *arrays) bytes += static_cast<double>(array.bytes());
  const double limit = job.hang_limit_s > 0 ? job.hang_limit_s : default_step_limit(bytes);
  if (job.board) job.board->set_case(job.rung, job.case_text, limit);
  prepared_outputs_ = &outputs;
  take_step(Step::prepare, &inputs, &outputs);
}
void MpiRung::inputs_changed(const Arrays& inputs) { take_step(Step::prepare, &inputs, prepared_outputs_); }
void MpiRung::upload() { take_step(Step::upload, nullptr, nullptr); }
void MpiRung::compute() { take_step(Step::compute, nullptr, nullptr); }
void MpiRung::download() { take_step(Step::download, nullptr, nullptr); }
void MpiRung::collect() { take_step(Step::collect, nullptr, nullptr); }

namespace {

// This process's index among the ranks on its own machine (collective).
int rank_on_this_machine() {
  MPI_Comm node;
  LADDER_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world_rank(), MPI_INFO_NULL, &node));
  int rank = 0;
  MPI_Comm_rank(node, &rank);
  MPI_Comm_free(&node);
  return rank;
}

}  // namespace

int MpiRung::node_rank() const { return rank_on_this_machine(); }

double MpiRung::timed_compute() {
  const double start = MPI_Wtime();
  compute();
  return MPI_Wtime() - start;
}

std::string MpiRung::device_name() const {
  return std::to_string(ranks_) + " MPI rank" + (ranks_ == 1 ? "" : "s") + " on " + host_cpu_model();
}

namespace {

// The communication probe's MPI side: as the mpi rungs send, host memory to host memory.
class MpiOps final : public CommunicationOps {
 public:
  explicit MpiOps(std::size_t max_bytes) : send_(max_bytes / sizeof(float)), receive_(send_.size()) {
    const int rank = world_rank(), ranks = world_size();
    next_ = (rank + 1) % ranks, previous_ = (rank + ranks - 1) % ranks;
  }
  void exchange(std::size_t bytes) override {
    LADDER_MPI(MPI_Sendrecv(send_.data(), static_cast<int>(bytes), MPI_BYTE, next_, 0, receive_.data(),
                            static_cast<int>(bytes), MPI_BYTE, previous_, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  }
  void allreduce(std::size_t bytes) override {
    LADDER_MPI(MPI_Allreduce(send_.data(), receive_.data(), static_cast<int>(bytes / sizeof(float)), MPI_FLOAT,
                             MPI_SUM, MPI_COMM_WORLD));
  }
  void reduce(std::size_t bytes) override {
    LADDER_MPI(MPI_Reduce(send_.data(), receive_.data(), static_cast<int>(bytes / sizeof(float)), MPI_FLOAT, MPI_SUM,
                          0, MPI_COMM_WORLD));
  }

 private:
  std::vector<float> send_, receive_;
  int next_ = 0, previous_ = 0;
};

NcclOpsMaker nccl_ops_maker = nullptr;

constexpr std::size_t kProbeMaxBytes = std::size_t{64} << 20;

// [[bytes, seconds], ...] of one operation, 4 B to 64 MiB by factors of 8.
// Each size once to warm up, then timed after a barrier, five times (three
// from 8 MiB), each timing the slowest rank's; the median is kept, which one
// interruption on a shared machine does not move. Below 1 MiB a timing is
// of a batch of operations (up to 50), so that the ranks' skew leaving the
// barrier is shared out. Sizes stop once one operation takes 0.1 s.
nlohmann::json time_operation(const std::function<void(std::size_t)>& operation) {
  nlohmann::json points = nlohmann::json::array();
  // The first call sets up the connections (NCCL's take a good part of a
  // second): untimed, so that the 0.1 s stop below does not take it for a
  // slow operation (on four H200s it ended NCCL's probe before 4 B).
  operation(4);
  for (std::size_t bytes = 4; bytes <= kProbeMaxBytes; bytes *= 8) {
    double warm_up = MPI_Wtime();
    operation(bytes);
    warm_up = MPI_Wtime() - warm_up;
    LADDER_MPI(MPI_Allreduce(MPI_IN_PLACE, &warm_up, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    if (warm_up > 0.1) break;  // every rank agrees: the slowest rank's time
    const int batch = static_cast<int>(std::clamp<std::size_t>((std::size_t{1} << 20) / bytes, 1, 50));
    std::vector<double> seconds(bytes >= (std::size_t{8} << 20) ? 3 : 5);
    for (double& s : seconds) {
      LADDER_MPI(MPI_Barrier(MPI_COMM_WORLD));
      const double start = MPI_Wtime();
      for (int i = 0; i < batch; ++i) operation(bytes);
      s = (MPI_Wtime() - start) / batch;
    }
    LADDER_MPI(MPI_Allreduce(MPI_IN_PLACE, seconds.data(), static_cast<int>(seconds.size()), MPI_DOUBLE, MPI_MAX,
                             MPI_COMM_WORLD));
    std::sort(seconds.begin(), seconds.end());
    points.push_back({bytes, seconds[seconds.size() / 2]});
  }
  return points;
}

// Each rank's machine, numbered in the order of the lowest rank on each: [0, 0, 1, 1] for two ranks on
// each of two machines. The report's model tells the links inside a machine from those between them.
std::vector<int> machine_of_each_rank() {
  MPI_Comm node;
  LADDER_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world_rank(), MPI_INFO_NULL, &node));
  int lowest_here = world_rank();
  LADDER_MPI(MPI_Allreduce(MPI_IN_PLACE, &lowest_here, 1, MPI_INT, MPI_MIN, node));
  MPI_Comm_free(&node);
  std::vector<int> lowest(static_cast<std::size_t>(world_size()));
  LADDER_MPI(MPI_Allgather(&lowest_here, 1, MPI_INT, lowest.data(), 1, MPI_INT, MPI_COMM_WORLD));
  std::vector<int> machine(lowest.size());
  std::map<int, int> number;  // lowest rank on a machine -> its number
  for (std::size_t rank = 0; rank < lowest.size(); ++rank)
    machine[rank] = number.try_emplace(lowest[rank], static_cast<int>(number.size())).first->second;
  return machine;
}

nlohmann::json probe(const char* backend, CommunicationOps& ops) {
  const std::vector<int> machine_of_rank = machine_of_each_rank();
  return {{"backend", backend},
          {"ranks", world_size()},
          {"machines", *std::max_element(machine_of_rank.begin(), machine_of_rank.end()) + 1},
          {"machine_of_rank", machine_of_rank},
          {"timing", "median of 5 timings (3 from 8 MiB), each the slowest rank's; below 1 MiB, of a batch"},
          {"exchange", time_operation([&](std::size_t bytes) { ops.exchange(bytes); })},
          {"allreduce", time_operation([&](std::size_t bytes) { ops.allreduce(bytes); })},
          {"reduce", time_operation([&](std::size_t bytes) { ops.reduce(bytes); })}};
}

// Every rank: the probe through MPI and, asked and built, through NCCL.
nlohmann::json probe_every_backend(bool nccl) {
  // On the board as a step of its own: a probe that makes no progress is a hang too.
  const int rank = world_rank();
  if (job.board && rank == 0) job.board->set_case("the communication probe", "", std::max(60.0, job.hang_limit_s));
  job.step = JobStep::probe;
  if (job.board) job.board->enter(rank, JobStep::probe);
  nlohmann::json measured = nlohmann::json::array();
  {
    MpiOps ops(kProbeMaxBytes);
    measured.push_back(probe("mpi", ops));
  }
  if (nccl && nccl_ops_maker) {
    const std::unique_ptr<CommunicationOps> ops = nccl_ops_maker(kProbeMaxBytes, rank_on_this_machine());
    measured.push_back(probe("nccl", *ops));
  }
  if (job.board) job.board->leave(rank), job.board->idle(rank);
  job.step = JobStep::idle;
  return measured;
}

}  // namespace

bool register_nccl_ops(NcclOpsMaker maker) {
  nccl_ops_maker = maker;
  return true;
}

nlohmann::json measure_communication(bool nccl) {
  int started = 0;
  MPI_Initialized(&started);
  if (!launched_by_mpirun() || !started || world_size() == 1) return nullptr;
  announce(MpiRung::Step::measure, nccl ? "nccl" : "mpi");
  try {
    return probe_every_backend(nccl);
  } catch (const std::exception& error) {
    abort_job(error);  // the other ranks may wait in one of its collectives
  }
}

int mpi_job_ranks() {
  int started = 0, finalized = 0;
  MPI_Initialized(&started);
  MPI_Finalized(&finalized);
  return started && !finalized ? world_size() : 1;
}

int mpi_ranks_on_this_machine() {
  int started = 0;
  MPI_Initialized(&started);
  return started ? job.ranks_here : 1;
}

// `ladder run ... --ranks N`: the same command again, as N ranks under
// mpirun, supervised (mpi_job.cpp): its exit status. `ladder check` takes
// --ranks itself (each MPI rung in a job of its own).
std::optional<int> run_with_ranks(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::optional<int> ranks;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string value;
    if (args[i] == "--ranks" && i + 1 < args.size()) {
      value = args[i + 1];
      args.erase(args.begin() + i, args.begin() + i + 2);
    } else if (args[i].rfind("--ranks=", 0) == 0) {
      value = args[i].substr(8);
      args.erase(args.begin() + i);
    } else if (args[i] == "--ranks") {
      throw UsageError("--ranks needs a number of ranks, e.g. --ranks 2");
    } else {
      continue;
    }
    ranks = ranks_from_text(value);
    break;
  }
  if (!ranks || (!args.empty() && args[0] == "check")) return std::nullopt;
  if (launched_by_mpirun()) throw UsageError("--ranks starts mpirun itself: use it without mpirun, or mpirun without it");
  const MpiJob job = run_mpi_job(*ranks, args, true);
  if (!job.problem) return job.status;
  std::cerr << "ladder: " << job.describe() << "; the job was stopped"
            << (args.empty() || args[0] != "run" ? "" : ", and no results file written") << '\n';
  return 1;
}

int ranks_from_text(const std::string& value) {
  char* end = nullptr;
  const long n = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || n < 1 || n > 1024)
    throw UsageError("--ranks " + value + ": give a number of MPI ranks from 1 to 1024");
  return static_cast<int>(n);
}

namespace {

// Whether this Open MPI can join tasks that srun started through PMI-1 or
// PMI-2: Open MPI 5 never (PMIx only); Open MPI 4 where it was built with
// Slurm's PMI library (--with-pmi), which gives it the s1 and s2 components
// beside the others. Where its components cannot be found (a static build),
// it may: it is let try.
bool open_mpi_speaks_pmi() {
#if defined(OPEN_MPI) && OMPI_MAJOR_VERSION >= 5
  return false;
#elif defined(OPEN_MPI)
  Dl_info library{};
  if (::dladdr(reinterpret_cast<void*>(&MPI_Init), &library) == 0 || library.dli_fname == nullptr) return true;
  std::error_code error;
  const auto folder = std::filesystem::canonical(library.dli_fname, error).parent_path();
  bool found_components = false;
  // A prefix install keeps them in lib/openmpi; Debian in openmpi/lib/openmpi3 beside libmpi.
  for (const auto& components : {folder / "openmpi", folder / "openmpi3", folder / "openmpi" / "lib" / "openmpi3"}) {
    if (!std::filesystem::exists(components / "mca_ess_pmi.so", error) &&
        !std::filesystem::exists(components / "mca_pmix_isolated.so", error))
      continue;
    found_components = true;
    if (std::filesystem::exists(components / "mca_pmix_s1.so", error) ||
        std::filesystem::exists(components / "mca_pmix_s2.so", error))
      return true;
  }
  return !found_components;
#else
  return true;  // MPICH and its kin speak PMI-2 themselves
#endif
}

}  // namespace

// srun starts each task itself (direct launch); MPI joins them through the
// process-management interface srun offers (--mpi=pmix, pmi2, none). Where
// it offers none this MPI speaks, Open MPI would abort in MPI_Init with a
// page about building it, and the tasks would not be one job: one message
// instead, from task 0, and exit 2 from every task.
void refuse_srun_that_mpi_cannot_join() {
  // Not a task of srun, one task alone (it runs as any program does), or joined through PMIx.
  const char* tasks = std::getenv("SLURM_STEP_NUM_TASKS");
  if (tasks == nullptr || std::atoi(tasks) <= 1 || launched_by_mpirun()) return;
  const char* offered = std::getenv("SLURM_MPI_TYPE");
  const std::string plugin = offered ? offered : "none";
  const bool through_pmi = std::getenv("PMI_FD") != nullptr || std::getenv("PMI_RANK") != nullptr;
  if (through_pmi && open_mpi_speaks_pmi()) return;
  const char* task = std::getenv("SLURM_PROCID");
  if (task != nullptr && std::string(task) != "0") std::exit(2);
  throw UsageError("srun started this as one of " + std::string(tasks) + " tasks with --mpi=" + plugin +
                   (through_pmi ? ", which this Open MPI cannot join (it was built for PMIx only)"
                                : ", which gives MPI no way to join them") +
                   ": start the ranks with `srun --mpi=pmix ...` (`srun --mpi=list` shows what this Slurm"
                   " offers), or run `ladder ... --ranks N` inside the allocation (mpirun takes it by itself)");
}

std::optional<int> start_mpi_rank() {
  refuse_srun_that_mpi_cannot_join();
  if (!launched_by_mpirun()) return std::nullopt;
  ensure_mpi();
  if (world_rank() == 0) return std::nullopt;  // rank 0 runs the command as usual
  // Every other rank: make and step the rungs rank 0 announces, until it says quit.
  std::unique_ptr<Rung> rung;
  try {
    for (;;) {
      Announcement announcement = await_announcement();
      switch (announcement.step) {
        case MpiRung::Step::make: {
          const auto made = nlohmann::json::parse(announcement.text);
          RungContext context;
          context.exercise = made.at("exercise").get<std::string>();
          context.rung = made.at("rung").get<std::string>();
          context.track = made.at("track").get<std::string>();
          context.params = Params(made.at("params").get<std::map<std::string, std::string>>());
          context.options.threads = made.at("threads").get<int>();
          context.options.input_files = input_files_of(made.at("input_files"));
          const RungEntry* entry = find_rung(context.exercise, context.rung, context.track);
          if (!entry) throw UsageError("rank 0 asked for " + context.exercise + "'s rung " + context.rung +
                                       ", which this rank's build does not have");
          rung = entry->make(context);
          break;
        }
        case MpiRung::Step::destroy: rung.reset(); break;
        case MpiRung::Step::measure: probe_every_backend(announcement.text == "nccl"); break;
        case MpiRung::Step::quit:
          rung.reset();
          if (job.board) job.board->stop(world_rank(), RankState::finished, "");
          MPI_Finalize();
          return 0;
        default:
          if (!rung) throw UsageError("rank 0 announced a step before making a rung");
          static_cast<MpiRung&>(*rung).take_step(announcement.step, nullptr, nullptr);
      }
    }
  } catch (const std::exception& error) {
    abort_job(error);
  }
}

}  // namespace ladder
