#include "ladder/kernels.hpp"

#include <cstdlib>
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

}  // namespace

std::string kernel_file(const std::string& path, const std::string& track) {
  if (const char* directory = std::getenv("LADDER_KERNEL_DIR"); directory && *directory)
    return std::string(directory) + "/" + path;
  if (track == "exercises") {
    // "<exercise>/<file>" lives in exercises/<exercise>/kernels/<file>.
    const auto slash = path.find('/');
    return std::string(LADDER_EXERCISES_SOURCE_DIR) + "/" + path.substr(0, slash) + "/kernels/" + path.substr(slash + 1);
  }
  return "kernels/" + path;  // embedded in the build from the source tree's kernels/
}

std::string kernel_source(const std::string& path, const std::string& track) {
  if (const char* directory = std::getenv("LADDER_KERNEL_DIR"); directory && *directory)
    return read_text(kernel_file(path, track), "LADDER_KERNEL_DIR");
  if (track == "exercises") return read_text(kernel_file(path, track), "the exercises track's kernel");
  for (const auto& kernel : embedded_kernels())
    if (path == kernel.path) return kernel.source;
  throw UsageError("no OpenCL kernel " + path + " was embedded in this build");
}

}  // namespace ladder
