#pragma once
// The registry: exercises and rungs register themselves from their own
// files, so adding a rung is one file and one registration line:
//
//   LADDER_REGISTER_RUNG(vector_add, cuda, CudaVectorAdd);
//
// The backend is the one the rung's base class names (Type::kBackend:
// HostRung, OpenMpRung, OpenMpTargetRung, OpenClRung, CudaRung, MpiRung); the rung's name must
// start with it (cuda..., opencl..., openmp_target..., openmp..., mpi...; any other name is a host rung),
// because a rung that is not built here is still listed by its name.
//
// Rungs belong to a track: "solutions" (solutions/, the worked rungs) or
// "exercises" (exercises/, the participant's); the build sets LADDER_TRACK
// for each folder, so one rung file registers in either.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ladder/problem.hpp"
#include "ladder/rung.hpp"
#include "ladder/track.hpp"

namespace ladder {

struct RungContext {
  Params params;
  RunOptions options;
  std::string track = kSolutionsTrack;  // where OpenCL rungs find their kernel sources
  std::string exercise = "";  // set by the registration: the rung's own names
  std::string rung = "";
};

struct RungEntry {
  std::string track;
  std::string exercise;
  std::string rung;
  Backend backend;
  std::function<std::unique_ptr<Rung>(const RungContext&)> make;
};

void register_problem(std::function<std::unique_ptr<Problem>()> make);
void register_rung(RungEntry entry);
const std::vector<RungEntry>& registered_rung_entries();

// A rung built into a shared library of its own (the openmp_target rungs),
// registered by name without loading it; the library is loaded when the
// rung is first made (bench/src/rung_libraries.cpp).
void register_rung_in_library(const std::string& track, const std::string& exercise, const std::string& rung,
                              const std::string& library);
// Called by register_rung(): true when `entry` is such a rung's own
// registration, made as its library loads, and kept for its stand-in.
bool register_rung_from_library(const RungEntry& entry);

// A whole track built as a library of its own beside the program (the
// exercises track: exercises/CMakeLists.txt), loaded when `ladder` starts;
// its rungs register as its constructors run. Not loaded where the track's
// C++ rungs are linked in already (a participant's copy, a test's program).
// Where it cannot be loaded (not built, older than the program, dlopen's
// error), the track's C++ rungs are skipped with track_not_loaded's reason.
void load_track_library(const std::string& track, const std::string& file_name);
// Why the track's library was not loaded; empty when it was, or needs none.
std::string track_not_loaded(const std::string& track);

std::vector<std::string> exercise_names();  // in the order of their specifications' numbers
std::unique_ptr<Problem> make_problem(const std::string& exercise);  // UsageError when unknown
// nullptr when not built in this track.
const RungEntry* find_rung(const std::string& exercise, const std::string& rung,
                           const std::string& track = kSolutionsTrack);

// The rungs built into this track for the exercise, in registration order.
std::vector<std::string> registered_rungs(const std::string& exercise, const std::string& track = kSolutionsTrack);

// Backend of a rung that may not be built here, from its name's prefix.
Backend backend_of(const std::string& rung);

// The many-device rungs, by the same naming rule as the build's
// (solutions/CMakeLists.txt): cuda_nccl* has a GPU for each MPI rank, and
// it and mpi* share their work among the ranks; every other rung runs on
// rank 0 alone.
bool has_gpu_per_rank(const std::string& rung);
bool shares_work_among_ranks(const std::string& rung);

struct Availability {
  bool available = false;
  std::string reason;  // why not, when not
};
// Can this backend run here, with these options? Throws UsageError when the
// options name a device that is not there.
Availability backend_availability(Backend backend, const RunOptions& options);

// Can this rung of the exercise run here, and if not, why: the one wording
// that list, check, run and solve all give. Its backend is not built or has
// no device here (backend_availability's reason), or the backend is here
// and the track has no such rung ("no skeleton for it in exercises/", "not
// built in this build").
Availability rung_availability(const std::string& exercise, const std::string& rung, const std::string& track,
                               const RunOptions& options);

namespace detail {
struct Registrar {
  explicit Registrar(std::function<void()> action) { action(); }
};
// The context a registered rung is made with: the caller's, with the rung's own names.
inline RungContext named(RungContext context, const char* exercise, const char* rung) {
  context.exercise = exercise;
  context.rung = rung;
  return context;
}
}  // namespace detail

}  // namespace ladder

#ifndef LADDER_TRACK
#define LADDER_TRACK "solutions"
#endif

#define LADDER_CONCAT_INNER(a, b) a##b
#define LADDER_CONCAT(a, b) LADDER_CONCAT_INNER(a, b)

#define LADDER_REGISTER_PROBLEM(Type)                                                   \
  static const ::ladder::detail::Registrar LADDER_CONCAT(ladder_problem_, __LINE__)(   \
      [] { ::ladder::register_problem([] { return std::make_unique<Type>(); }); })

#define LADDER_REGISTER_RUNG(exercise, rung, Type) LADDER_REGISTER_RUNG_IN_TRACK(LADDER_TRACK, exercise, rung, Type)

// A rung of another track than the folder's: the tests' planted mistakes
// ("planted"), which neither `ladder` nor the rung tests see.
#define LADDER_REGISTER_RUNG_IN_TRACK(track, exercise, rung, Type)                       \
  static const ::ladder::detail::Registrar LADDER_CONCAT(ladder_rung_, __LINE__)([] {   \
    ::ladder::register_rung({track, #exercise, #rung, Type::kBackend,                   \
                             [](const ::ladder::RungContext& context) {                 \
                               return std::unique_ptr<::ladder::Rung>(                  \
                                   new Type(::ladder::detail::named(context, #exercise, #rung))); \
                             }});                                                       \
  })
