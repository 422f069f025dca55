#pragma once
// OpenCL kernel sources. The solutions' kernels (kernels/<exercise>/) are
// embedded at build time; the participant's (exercises/<exercise>/kernels/)
// are read from the source tree at run time, so that an edited kernel runs
// without a rebuild. $LADDER_KERNEL_DIR/<exercise>/<file>.cl overrides both.
#include <string>
#include <vector>

#include "ladder/track.hpp"

namespace ladder {

struct EmbeddedKernel {
  const char* path;    // relative to kernels/, e.g. "vector_add/vector_add.cl"
  const char* source;
};
const std::vector<EmbeddedKernel>& embedded_kernels();

// The source of "<exercise>/<file>.cl" for the given track; UsageError
// when it cannot be found.
std::string kernel_source(const std::string& path, const std::string& track = kSolutionsTrack);
// The file that kernel_source reads for that path and track, as a person
// would open it to edit: the participant's exercises/<exercise>/kernels/<file>.
std::string kernel_file(const std::string& path, const std::string& track = kSolutionsTrack);

}  // namespace ladder
