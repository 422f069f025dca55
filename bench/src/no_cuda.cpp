// Stands in for bench/cuda when the project is built without CUDA.
#include <filesystem>

#include "ladder/backends.hpp"
#include "ladder/error.hpp"

#ifndef LADDER_NO_CUDA_REASON
#define LADDER_NO_CUDA_REASON "LADDER_CUDA=OFF"
#endif

namespace ladder {

namespace {

// Whether the NVIDIA driver sees a GPU here, without the CUDA runtime: the
// driver lists each GPU under /proc/driver/nvidia/gpus.
bool nvidia_gpu_present() {
  std::error_code error;
  const std::filesystem::path gpus = "/proc/driver/nvidia/gpus";
  return std::filesystem::is_directory(gpus, error) && !std::filesystem::is_empty(gpus, error);
}

}  // namespace

Availability cuda_availability(const RunOptions& options) {
  if (options.cuda_device >= 0)
    throw UsageError("CUDA device " + std::to_string(options.cuda_device) +
                     " is not there: this build has no CUDA backend (LADDER_CUDA)");
  // The reason a reader can act on first: on a machine without a GPU no build would run a CUDA rung.
  if (!nvidia_gpu_present())
    return {false, "no NVIDIA GPU on this machine; built without CUDA (" LADDER_NO_CUDA_REASON ")"};
  return {false, "built without CUDA (" LADDER_NO_CUDA_REASON "), but this machine has an NVIDIA GPU: "
                 "configure with -DLADDER_CUDA=ON to run the CUDA rungs"};
}
nlohmann::json cuda_devices() { return nlohmann::json::array(); }
DeviceCeilings measure_cuda_ceilings(const RunOptions&) { return {}; }

}  // namespace ladder
