#include "ladder/kernels.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ladder/error.hpp"

namespace ladder {

namespace {

std::string read_text(const std::string& file, const std::string& where) {
  std::ifstream in(file);
  if (!in) throw UsageError(where + ": cannot read " + file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Where the source of path lies for the track: a file to read, or, for the
// solutions track, the name it had in kernels/ before it was embedded.
std::string kernel_path(const std::string& path, const std::string& track) {
  if (const char* directory = std::getenv("LADDER_KERNEL_DIR"); directory && *directory)
    return std::string(directory) + "/" + path;
  if (track == kExercisesTrack) {
    // "<exercise>/<file>" lives in exercises/<exercise>/kernels/<file>.
    const auto slash = path.find('/');
    return std::string(LADDER_EXERCISES_SOURCE_DIR) + "/" + path.substr(0, slash) + "/kernels/" + path.substr(slash + 1);
  }
  return "kernels/" + path;  // embedded in the build from the source tree's kernels/
}

}  // namespace

std::string kernel_file(const std::string& path, const std::string& track) {
  // Relative to where ladder runs when the file lies below it: what a person types to open it.
  const std::string file = kernel_path(path, track);
  std::error_code error;
  const auto relative = std::filesystem::relative(file, error);
  if (!error && !relative.empty() && *relative.begin() != "..") return relative.string();
  return file;
}

std::string kernel_source(const std::string& path, const std::string& track) {
  if (const char* directory = std::getenv("LADDER_KERNEL_DIR"); directory && *directory)
    return read_text(kernel_path(path, track), "LADDER_KERNEL_DIR");
  if (track == kExercisesTrack) return read_text(kernel_path(path, track), "the exercises track's kernel");
  for (const auto& kernel : embedded_kernels())
    if (path == kernel.path) return kernel.source;
  throw UsageError("no OpenCL kernel " + path + " was embedded in this build");
}

}  // namespace ladder
