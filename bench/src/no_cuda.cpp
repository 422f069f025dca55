// Stands in for bench/cuda when the project is built without CUDA.
#include "ladder/backends.hpp"

namespace ladder {

Availability cuda_availability(const RunOptions&) {
  return {false, "built without CUDA (LADDER_CUDA: nvcc was not found or the option is OFF)"};
}
nlohmann::json cuda_devices() { return nlohmann::json::array(); }
DeviceCeilings measure_cuda_ceilings(const RunOptions&) { return {}; }

}  // namespace ladder
