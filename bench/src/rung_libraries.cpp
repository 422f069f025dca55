// Rungs whose code lives in a shared library of its own (the openmp_target
// rungs, built by clang++: cmake/LadderOpenMpTarget.cmake), registered by
// name when `ladder` starts and loaded when one of them is first made. Not
// linked in: loading a library runs its constructors, and an OpenMP offload
// library's register its GPU code with libomptarget, which starts CUDA. A
// process that never makes such a rung (`ladder list`, compute-sanitizer
// over the CUDA rungs, which must start CUDA itself) never loads it.
#include <dlfcn.h>

#include <cstdlib>
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

}  // namespace ladder
