// Rungs whose code lives in a shared library of its own (the openmp_target
// rungs, built by clang++: cmake/LadderOpenMpTarget.cmake), registered by
// name when `ladder` starts and loaded when one of them is first made. Not
// linked in: loading a library runs its constructors, and an OpenMP offload
// library's register its GPU code with libomptarget, which starts CUDA. A
// process that never makes such a rung (`ladder list`, compute-sanitizer
// over the CUDA rungs, which must start CUDA itself) never loads it.
// And a whole track in a library of its own (the exercises track), loaded
// when `ladder` starts.
#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

#include "ladder/error.hpp"
#include "ladder/registry.hpp"

namespace ladder {
namespace {

using Key = std::tuple<std::string, std::string, std::string>;  // track, exercise, rung

// What a loaded library registered, under its rung's names: the maker its
// stand-in hands on to.
std::map<Key, RungEntry>& loaded_rungs() {
  static std::map<Key, RungEntry> rungs;
  return rungs;
}

// LADDER_RUNG_LIBRARY_DIR: the libraries of the same names from another
// folder (the tests' builds of the openmp_target rungs for the host as an
// offload device, and their planted mistake).
std::string library_path(const std::string& library) {
  const char* folder = std::getenv("LADDER_RUNG_LIBRARY_DIR");
  if (folder == nullptr || *folder == '\0') return library;
  return std::string(folder) + "/" + library.substr(library.find_last_of('/') + 1);
}

void load_library(const std::string& built) {
  static std::mutex mutex;
  static std::set<std::string> loaded;  // never closed: its rungs' code must stay
  const std::lock_guard lock(mutex);
  const std::string library = library_path(built);
  if (loaded.count(library)) return;
  // RTLD_LOCAL: the library's own OpenMP runtime (libomp) stays its own; its
  // calls into the harness find the executable's symbols (linked with
  // --export-dynamic).
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    throw DeviceError("cannot load the rung's library " + library + ": " + (why ? why : "unknown error") +
                      " (its OpenMP runtime, libomp and libomptarget, must be found: LD_LIBRARY_PATH)");
  }
  loaded.insert(library);
}

}  // namespace

bool register_rung_from_library(const RungEntry& entry) {
  const Key key{entry.track, entry.exercise, entry.rung};
  for (const auto& known : registered_rung_entries())
    if (known.track == entry.track && known.exercise == entry.exercise && known.rung == entry.rung) {
      loaded_rungs()[key] = entry;  // the stand-in was there first: this is its library, now loaded
      return true;
    }
  return false;
}

void register_rung_in_library(const std::string& track, const std::string& exercise, const std::string& rung,
                              const std::string& library) {
  const Key key{track, exercise, rung};
  register_rung({track, exercise, rung, backend_of(rung), [key, library, rung](const RungContext& context) {
                   load_library(library);
                   const auto loaded = loaded_rungs().find(key);
                   if (loaded == loaded_rungs().end())
                     throw DeviceError("the library " + library + " was loaded but registered no rung " + rung);
                   return loaded->second.make(context);
                 }});
}

namespace {
std::map<std::string, std::string>& tracks_not_loaded() {
  static std::map<std::string, std::string> reasons;  // track: why its library was not loaded
  return reasons;
}
}  // namespace

void load_track_library(const std::string& track, const std::string& file_name) {
  // Its C++ rungs linked in already (a participant's copy): nothing to load.
  // Its Python rungs are the program's own, in every build.
  for (const RungEntry& entry : registered_rung_entries())
    if (entry.track == track && entry.backend != Backend::python) return;
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path program = fs::read_symlink("/proc/self/exe", error);
  if (error) {
    tracks_not_loaded()[track] = "the " + track + " track's library " + file_name +
                                 " was not loaded: the program's own path is unknown (" + error.message() + ")";
    return;
  }
  const fs::path library = program.parent_path() / file_name;
  // The build folder is the one above bench/, where `ladder` is.
  const std::string build_again = "cmake --build " + program.parent_path().parent_path().string() +
                                  " (every target: scripts/run.sh builds `ladder` alone)";
  if (!fs::exists(library, error)) {
    tracks_not_loaded()[track] =
        "the " + track + " track is not built (" + library.string() + " is not there): build it with " + build_again;
    return;
  }
  // Relinked whenever `ladder` is: an older library was built against another harness.
  if (fs::last_write_time(library, error) < fs::last_write_time(program, error)) {
    tracks_not_loaded()[track] = "the " + track + " track's library " + library.string() +
                                 " is older than `ladder`, built from other sources: build again with " + build_again;
    return;
  }
  // RTLD_LOCAL: the track's symbols stay its own; its rungs register
  // themselves with the program's registry as its constructors run.
  if (dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL) == nullptr) {
    const char* why = dlerror();
    tracks_not_loaded()[track] =
        "cannot load the " + track + " track's library " + library.string() + ": " + (why ? why : "unknown error");
  }
}

std::string track_not_loaded(const std::string& track) {
  const auto found = tracks_not_loaded().find(track);
  return found == tracks_not_loaded().end() ? std::string() : found->second;
}

}  // namespace ladder
