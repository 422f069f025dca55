#pragma once
// OpenCL kernel sources: embedded at build time, or read from
// $LADDER_KERNEL_DIR/<exercise>/<file>.cl so that a participant can edit a
// kernel and rerun without rebuilding.
#include <string>
#include <vector>

namespace ladder {

struct EmbeddedKernel {
  const char* path;    // relative to kernels/, e.g. "vector_add/vector_add.cl"
  const char* source;
};
const std::vector<EmbeddedKernel>& embedded_kernels();

// The source of kernels/<path>; UsageError when neither place has it.
std::string kernel_source(const std::string& path);

}  // namespace ladder
