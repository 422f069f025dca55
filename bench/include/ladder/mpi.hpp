#pragma once
// MpiRung: a rung whose work is shared by the ranks of an MPI job, one
// process per rank (docs/design.md, "Many devices").
//
// The harness runs on rank 0 only, as for every rung. Each of the four steps
// it calls there is announced to the other ranks, which wait in
// follow_rank_zero() and take the same step, so that a rung is written as one
// SPMD program, the same code on every rank:
//   prepare_ranks  - untimed set-up; rank 0 has the harness's arrays
//   scatter        - upload: rank 0 sends each rank its part of the inputs
//   compute_ranks  - each rank's work and the communication it cannot do
//                    without while computing (a halo, an allreduce)
//   gather         - download: the output back to rank 0
// Compute-only time is then "the work, where the data already is, with its
// communication", ended when the slowest rank ends it.
//
// A rung whose data stays on each rank, as a distributed program keeps it,
// receives each rank's part of the inputs once, untimed, in prepare_ranks
// (receive_own_part: under `ladder solve` each rank reads its own part of
// the input file, else rank 0 sends it), copies only its own part in
// scatter and gather, and brings the outputs to rank 0 in
// collect_for_check: after the download that the harness checks, never in a
// timed one.
//
// A rank that fails (an exception, or an MPI error: an error handler on
// MPI_COMM_WORLD catches the rung's own MPI calls too) puts the failure on
// the job's board and stops the job (MPI_Abort); a step that some rank does
// not finish within its limit is a hang, found by whoever watches the board
// (ladder/job_board.hpp, ladder/mpi_job.hpp): a distributed run never hangs.
// A LADDER_TODO is no failure: after each step the ranks agree whether any
// of them stopped at one (an allreduce, which is also what ends the step),
// and rank 0 throws NotImplemented, reported as for any rung (mpi_rung.cpp).
#include <mpi.h>

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ladder/registry.hpp"

namespace ladder {

class MpiRung : public Rung {
 public:
  static constexpr Backend kBackend = Backend::mpi;

  // On rank 0, also tells the other ranks to make the same rung.
  explicit MpiRung(const RungContext& context);
  ~MpiRung() override;

  // The harness's steps, on rank 0: each is announced, then taken on every rank.
  void prepare(const Arrays& inputs, Arrays& outputs) final;
  void upload() final;
  void compute() final;
  void download() final;
  void collect() final;
  // Fresh inputs (the harness's fresh-input check): every rank prepares
  // again, so that a rung whose data stays on its ranks, given once in
  // prepare_ranks, is given the new parts.
  void inputs_changed(const Arrays& inputs) final;
  double timed_compute() final;
  bool compute_timed_on_host_clock() const final { return true; }  // rank 0's MPI_Wtime
  std::string device_name() const override;
  DeviceKind device_kind() const override { return DeviceKind::cpu; }

  // What a rank other than 0 runs: make and step the rungs rank 0 announces.
  // Called by follow_rank_zero(); not for rungs.
  enum class Step : int { make, prepare, upload, compute, download, destroy, quit, measure, collect };
  void take_step(Step step, const Arrays* inputs, Arrays* outputs);

 protected:
  // The rung's SPMD program. `inputs` and `outputs` are the harness's host
  // arrays on rank 0 and nullptr on every other rank.
  virtual void prepare_ranks(const Arrays* inputs, Arrays* outputs) = 0;
  virtual void scatter() {}
  virtual void compute_ranks() = 0;
  virtual void gather() {}
  virtual void collect_for_check() {}

  // Rank 0: tells the other ranks to destroy their copy of this rung now,
  // not after this one's members are gone (~MpiRung would), for members
  // whose destruction is itself collective. Once only.
  void release_other_ranks();

  int rank() const { return rank_; }
  int ranks() const { return ranks_; }
  // This rank's index among the ranks on its own machine: a rung with a GPU
  // per rank takes that GPU.
  int node_rank() const;
  MPI_Comm communicator() const { return MPI_COMM_WORLD; }
  // On every rank: the .npy file that input `name` was read from unchanged
  // (`ladder solve`; announced with the rung), for receive_own_part; nullopt
  // where the inputs were generated, or converted after reading.
  std::optional<InputFile> input_file(const std::string& name) const;

 private:
  int rank_ = 0;
  int ranks_ = 1;
  bool released_ = false;
  Arrays* prepared_outputs_ = nullptr;  // rank 0: the harness's outputs, for inputs_changed
  std::map<std::string, InputFile> input_files_;
};

// The communication probe (measure_communication, backends.hpp) times three
// operations of a backend at each message size, each one done on this rank
// when it returns: an exchange (a message to the next rank and one from the
// rank before, at once, as a halo), an allreduce of `bytes`, and a reduce of
// `bytes` (summed to rank 0).
class CommunicationOps {
 public:
  virtual ~CommunicationOps() = default;
  virtual void exchange(std::size_t bytes) = 0;
  virtual void allreduce(std::size_t bytes) = 0;
  virtual void reduce(std::size_t bytes) = 0;
};
// NCCL's, GPU to GPU (bench/mpi/nccl_probe.cu, where the build has NCCL):
// made on every rank at once, on the GPU a rung on this rank would take.
using NcclOpsMaker = std::unique_ptr<CommunicationOps> (*)(std::size_t max_bytes, int node_rank);
bool register_nccl_ops(NcclOpsMaker maker);  // at start-up; returns true

// Every MPI call's status, checked: a failure names the call and MPI's message.
void mpi_check(int status, const char* call);
#define LADDER_MPI(call) ::ladder::mpi_check((call), #call)

// The element range [begin, end) of `rank`'s part when n elements are shared
// by `ranks` as evenly as can be (the first n % ranks ranks have one more).
struct Part {
  long long begin = 0, end = 0;
  long long size() const { return end - begin; }
};
Part part_of(long long n, int rank, int ranks);

// Every rank's part of n items at once, as MPI_Scatterv and MPI_Gatherv
// take them: rank r's counts[r] items start at item offsets[r]. A
// UsageError where a count or offset passes an int's range (MPI counts in
// int: a datatype of several elements per item keeps them small).
struct Parts {
  std::vector<int> counts, offsets;
};
Parts parts_of(long long n, int ranks);

// Collective: each rank's own part of an input into `mine`, rank r's
// parts.counts[r] items of `item` from item parts.offsets[r], as
// MPI_Scatterv takes them (`whole`: the input, on rank 0). Where `file`
// holds the input (MpiRung::input_file) every rank but 0 reads its part
// from there, and nothing passes through rank 0; without a file, or where
// some rank cannot open it, rank 0 sends each rank its part. A rank that
// opens it and reads another header, or other bytes, than rank 0 read makes
// rank 0 throw a UsageError that names it (the job is stopped); the others
// return. True where the parts came from the file.
bool receive_own_part(const std::optional<InputFile>& file, const void* whole, const Parts& parts, MPI_Datatype item,
                      void* mine, MPI_Comm communicator);

}  // namespace ladder
