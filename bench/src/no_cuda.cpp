// Stands in for bench/cuda when the project is built without CUDA.
#include "ladder/backends.hpp"
#include "ladder/error.hpp"

namespace ladder {

Availability cuda_availability(const RunOptions& options) {
  if (options.cuda_device >= 0)
    throw UsageError("CUDA device " + std::to_string(options.cuda_device) +
                     " is not there: this build has no CUDA backend (LADDER_CUDA)");
  return {false, "built without CUDA (LADDER_CUDA: nvcc was not found or the option is OFF)"};
}
nlohmann::json cuda_devices() { return nlohmann::json::array(); }
DeviceCeilings measure_cuda_ceilings(const RunOptions&) { return {}; }

}  // namespace ladder
