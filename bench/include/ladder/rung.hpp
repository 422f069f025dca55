#pragma once
// Rung: one optimisation stage of one exercise, in four steps (docs/design.md):
//   prepare  - one-time, untimed: allocate, build programs, warm up
//   upload   - host -> device copies (nothing for CPU rungs)
//   compute  - the work itself, on data already where the rung computes
//   download - device -> host copies of the output
// Rungs never time themselves: the backend base classes (HostRung,
// OpenMpRung, OpenMpTargetRung, CudaRung, OpenClRung) measure compute with the right clock,
// and each names its backend (kBackend), which the registration reads.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ladder/array.hpp"
#include "ladder/ceil_div.hpp"
#include "ladder/params.hpp"

namespace ladder {

// python: a rung written in Python, run in a worker process (ladder/python.hpp).
enum class Backend { host, openmp, openmp_target, opencl, cuda, mpi, python };
std::string backend_name(Backend backend);

enum class DeviceKind { cpu, gpu };

// Messages of one size that one compute() of a distributed rung sends, for
// the report's model of how it scales (docs/measurement.md): `rounds` times,
// a message of `bytes` in `pattern`: "exchange" (each rank to a neighbour,
// all at once, as a halo), "allreduce", or "reduce" (to one rank, or a
// broadcast from one: a tree either way).
struct Message {
  std::string pattern;
  double bytes = 0;
  double rounds = 1;
};

// An input that `ladder solve` read unchanged from a .npy file: where its
// data lies there, and what rank 0 read. A distributed rung's other ranks
// may read their own parts of it themselves (MpiRung::input_file).
struct InputFile {
  std::string path;               // absolute: the same file from any working directory
  std::uint64_t data_offset = 0;  // the data's first byte; the data is C order
  ArrayShape array;               // the header's dtype and shape
};

struct RunOptions {
  bool pinned = false;       // page-locked host buffers for CUDA rungs
  bool warm = false;         // skip the L2 eviction before each repetition
  bool evict_by_writing = false;  // evict the GPU's L2 by writing a buffer (every run up to 2026-11-26)
  int threads = 0;           // OpenMP threads; 0 = the runtime's default
  int cuda_device = -1;      // -1 = LADDER_CUDA_DEVICE or the first GPU
  std::string opencl_device; // "P:D"; empty = LADDER_OPENCL_DEVICE or the first GPU, else a CPU
  std::map<std::string, InputFile> input_files;  // by input name; `solve` only, where read unchanged from .npy
  // Each rung checked once more after its timing, on inputs of a seed drawn
  // then (`run --fresh-inputs`, and every run handed in to a class folder).
  bool fresh_inputs = false;
};

class Rung {
 public:
  virtual ~Rung() = default;

  // `inputs` and `outputs` are host arrays that outlive the rung.
  virtual void prepare(const Arrays& inputs, Arrays& outputs) = 0;
  virtual void upload() {}
  virtual void compute() = 0;
  virtual void download() {}
  // After a download whose outputs are checked (not after a timed one): a
  // rung whose download leaves the outputs where a distributed program
  // keeps them (each MPI rank its own part) brings them into `outputs`.
  virtual void collect() {}

  // For the harness, implemented by the backend base classes.
  // Called before prepare(): CUDA rungs pin the host arrays under --pinned.
  virtual void attach_host_memory(const Arrays& /*inputs*/, Arrays& /*outputs*/) {}
  // The host inputs were rewritten in place (the fresh-input check): a rung
  // that copied them at prepare() into memory of its own copies them again.
  virtual void inputs_changed(const Arrays& /*inputs*/) {}
  virtual void synchronize() {}                 // wait for all queued work
  // After a download: OutOfBounds where a kernel wrote past the end of a
  // device buffer (OpenClRung's guard zones); nothing for other rungs.
  virtual void check_device_guard_zones() {}
  virtual double timed_compute() = 0;           // runs compute(), returns seconds
  // Whether timed_compute() is the host's clock around compute() (not a
  // device's events): then compute + upload + download timed apart is what a
  // round trip would time, and the harness may add them (time_rung()).
  virtual bool compute_timed_on_host_clock() const { return false; }
  // Where a device's events time compute() but the window between them
  // holds the host's work too, what that work is (the copies to and from
  // the host that a streams rung overlaps; Numba's dispatch of each
  // launch): such a figure moves with the host, and `ladder compare` judges
  // it as a host figure. Empty where the events time the device alone.
  virtual std::string host_work_in_compute() const { return {}; }
  virtual void evict_caches() {}                // before a timed repetition; may only queue the work
  virtual std::string device_name() const = 0;
  virtual DeviceKind device_kind() const = 0;
  virtual bool uses_pinned_memory() const { return false; }
  // Devices the rung computes on at once (a GPU for each MPI rank): its
  // fraction of ceiling is over all of theirs.
  virtual int device_count() const { return 1; }
  // What compute() sends between ranks, after a run: a distributed rung
  // (MpiRung) says, an empty list where it sends nothing. nullopt for the
  // others, and for a distributed rung that does not say (the report then
  // predicts nothing for it rather than perfect scaling).
  virtual std::optional<std::vector<Message>> communication() const { return std::nullopt; }
  // The arithmetic operations the last compute() did, where the rung's
  // algorithm does fewer than the problem's Work::operations (convolution's
  // cuda_separable: r·(K + L) multiply-adds an output for a kernel of rank
  // r, not K·L). Its fraction of ceiling is then over these, or over the
  // problem's bytes where those take longer (the roofline). nullopt: the
  // problem's count.
  virtual std::optional<double> operations() const { return std::nullopt; }
  // What the results row records beyond the C++ rungs' fields: a Python
  // rung's language, its libraries' versions, its thread count and its
  // first-call costs (imports, JIT, kernel compiles), kept apart from the
  // samples. nullopt for the C++ rungs.
  virtual std::optional<nlohmann::json> language() const { return std::nullopt; }
};

// Rungs that compute on the host, timed with a steady clock.
class HostRung : public Rung {
 public:
  static constexpr Backend kBackend = Backend::host;
  double timed_compute() override;
  bool compute_timed_on_host_clock() const override { return true; }
  std::string device_name() const override;
  DeviceKind device_kind() const override { return DeviceKind::cpu; }
};

// Rungs that compute on the host with OpenMP threads: timed like any host
// rung, listed and skipped as OpenMP (a build without OpenMP has none).
class OpenMpRung : public HostRung {
 public:
  static constexpr Backend kBackend = Backend::openmp;
};

}  // namespace ladder
