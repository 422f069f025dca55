#include "ladder/registry.hpp"

#include <algorithm>
#include <cstdlib>

#include "ladder/backends.hpp"
#include "ladder/error.hpp"
#include "ladder/python.hpp"
#include "ladder/suggest.hpp"

namespace ladder {
namespace {

// Function-local statics: registration runs during static initialisation,
// in whatever order the linker chose.
std::vector<std::function<std::unique_ptr<Problem>()>>& problem_makers() {
  static std::vector<std::function<std::unique_ptr<Problem>()>> makers;
  return makers;
}
std::vector<RungEntry>& rung_entries() {
  static std::vector<RungEntry> entries;
  return entries;
}

// The ladder's order, given by the build from the numbers of the
// specifications (bench/problems/<ex>/README.md: "a,b,c"); any exercise
// not in it (a test's) follows alphabetically.
std::size_t order_of(const std::string& exercise) {
  static const std::string order = "," LADDER_EXERCISE_ORDER ",";
  const std::size_t at = order.find("," + exercise + ",");
  return at == std::string::npos ? order.size() : at;
}

}  // namespace

std::string backend_name(Backend backend) {
  switch (backend) {
    case Backend::host: return "host";
    case Backend::openmp: return "openmp";
    case Backend::openmp_target: return "openmp_target";
    case Backend::opencl: return "opencl";
    case Backend::cuda: return "cuda";
    case Backend::mpi: return "mpi";
    case Backend::python: return "python";
  }
  return "?";
}

void register_problem(std::function<std::unique_ptr<Problem>()> make) { problem_makers().push_back(std::move(make)); }
void register_rung(RungEntry entry) {
  // A rung of a library loaded when it is first made (rung_libraries.cpp) registers a second time, on load.
  if (register_rung_from_library(entry)) return;
  rung_entries().push_back(std::move(entry));
}
const std::vector<RungEntry>& registered_rung_entries() { return rung_entries(); }

std::vector<std::string> exercise_names() {
  std::vector<std::string> names;
  for (const auto& make : problem_makers()) names.push_back(make()->name());
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
    return std::pair(order_of(a), a) < std::pair(order_of(b), b);
  });
  return names;
}

std::unique_ptr<Problem> make_problem(const std::string& exercise) {
  for (const auto& make : problem_makers()) {
    auto problem = make();
    if (problem->name() == exercise) return problem;
  }
  std::string accepted;
  for (const auto& name : exercise_names()) accepted += (accepted.empty() ? "" : ", ") + name;
  throw UsageError("unknown exercise '" + exercise + "'" + did_you_mean(exercise, exercise_names()) + " (accepted: " +
                   accepted + ")");
}

std::vector<std::string> registered_rungs(const std::string& exercise, const std::string& track) {
  std::vector<std::string> rungs;
  for (const auto& entry : rung_entries())
    if (entry.track == track && entry.exercise == exercise) rungs.push_back(entry.rung);
  return rungs;
}

const RungEntry* find_rung(const std::string& exercise, const std::string& rung, const std::string& track) {
  for (const auto& entry : rung_entries())
    if (entry.track == track && entry.exercise == exercise && entry.rung == rung) return &entry;
  return nullptr;
}

Backend backend_of(const std::string& rung) {
  if (rung.rfind("cuda", 0) == 0) return Backend::cuda;
  if (rung.rfind("opencl", 0) == 0) return Backend::opencl;
  if (rung.rfind("openmp_target", 0) == 0) return Backend::openmp_target;
  if (rung.rfind("openmp", 0) == 0) return Backend::openmp;
  if (rung.rfind("mpi", 0) == 0) return Backend::mpi;
  if (rung.rfind("python", 0) == 0) return Backend::python;
  return Backend::host;
}

bool has_gpu_per_rank(const std::string& rung) { return rung.rfind("cuda_nccl", 0) == 0; }
bool shares_work_among_ranks(const std::string& rung) {
  return has_gpu_per_rank(rung) || backend_of(rung) == Backend::mpi;
}

Availability backend_availability(Backend backend, const RunOptions& options) {
  switch (backend) {
    case Backend::host: return {true, ""};
    case Backend::openmp:
#ifdef LADDER_HAVE_OPENMP
      return {true, ""};
#else
      return {false, "built without OpenMP (LADDER_OPENMP)"};
#endif
    case Backend::openmp_target:
#ifdef LADDER_HAVE_OPENMP_TARGET
      return {true, ""};  // on a GPU, or on the host fallback, which the rung's device names
#else
      return {false, "built without OpenMP target offload (" LADDER_NO_OPENMP_TARGET_REASON ")"};
#endif
    case Backend::opencl: return opencl_availability(options);
    case Backend::cuda: return cuda_availability(options);
    case Backend::mpi: return mpi_availability();
    case Backend::python: return python_availability();
  }
  return {false, "unknown backend"};
}

Availability rung_availability(const std::string& exercise, const std::string& rung, const std::string& track,
                               const RunOptions& options) {
  const RungEntry* entry = find_rung(exercise, rung, track);
  Availability backend = backend_availability(entry ? entry->backend : backend_of(rung), options);
  // A rung with a GPU for every MPI rank (cuda_nccl) needs as many GPUs as ranks on this machine.
  // A launcher that gives each rank a GPU of its own sets CUDA_VISIBLE_DEVICES
  // to one GPU, a different one on each rank: taken at its word.
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  const bool one_gpu_each = visible && *visible && std::string(visible).find(',') == std::string::npos;
  if (backend.available && has_gpu_per_rank(rung) && !one_gpu_each) {
    const int ranks = mpi_ranks_on_this_machine(), gpus = static_cast<int>(cuda_devices().size());
    if (ranks > gpus)
      return {false, "needs a GPU for each MPI rank: " + std::to_string(ranks) + " ranks on this machine, " +
                         std::to_string(gpus) + " GPU" + (gpus == 1 ? "" : "s")};
  }
  if (backend.available && entry && entry->backend == Backend::python)
    return python_rung_availability(exercise, rung, track, options);  // its own modules and device
  if (!backend.available || entry) return backend;
  // The track's library not loaded: its C++ rungs are missing, not unwritten.
  if (const std::string not_loaded = track_not_loaded(track); !not_loaded.empty() && backend_of(rung) != Backend::python)
    return {false, not_loaded};
  return {false, track == kExercisesTrack ? "no skeleton for it in exercises/" : "not built in this build"};
}

}  // namespace ladder
