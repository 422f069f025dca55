#include "ladder/kernels.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "ladder/error.hpp"

namespace ladder {

std::string kernel_source(const std::string& path) {
  if (const char* directory = std::getenv("LADDER_KERNEL_DIR"); directory && *directory) {
    std::string file = std::string(directory) + "/" + path;
    std::ifstream in(file);
    if (!in) throw UsageError("LADDER_KERNEL_DIR: cannot read " + file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
  for (const auto& kernel : embedded_kernels())
    if (path == kernel.path) return kernel.source;
  throw UsageError("no OpenCL kernel " + path + " was embedded in this build");
}

}  // namespace ladder
