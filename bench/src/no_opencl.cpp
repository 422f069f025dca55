// Stands in for bench/opencl when the project is built without OpenCL.
#include "ladder/backends.hpp"

namespace ladder {

Availability opencl_availability(const RunOptions&) {
  return {false, "built without OpenCL (LADDER_OPENCL: no ICD loader found or the option is OFF)"};
}
nlohmann::json opencl_devices() { return nlohmann::json::array(); }
DeviceCeilings measure_opencl_ceilings(const RunOptions&) { return {}; }

}  // namespace ladder
