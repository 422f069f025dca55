#pragma once
// What each device backend can tell the harness, with or without the
// backend built. Implemented in bench/cuda and bench/opencl, or as stubs.
#include <nlohmann/json.hpp>

#include "ladder/registry.hpp"

namespace ladder {

Availability cuda_availability(const RunOptions& options);
Availability opencl_availability(const RunOptions& options);

// For `ladder devices` and the results' context.
nlohmann::json cuda_devices();
nlohmann::json opencl_devices();

// Measured ceilings of the selected device (0 when it cannot be measured).
struct DeviceCeilings {
  std::string device;
  double copy_bytes_per_s = 0;  // device-to-device copy, bytes read + written
  double host_to_device_pinned = 0;
  double device_to_host_pinned = 0;
  double host_to_device_pageable = 0;
  double device_to_host_pageable = 0;
  // Pinned uploads and downloads at once, on two streams: the bytes of both
  // over the time (the link is full duplex, but a host may not feed both
  // directions at their full rates together). 0 where not measured.
  double both_directions_pinned = 0;
  // FP32 operations per second, a fused multiply-add counting 2, from a
  // kernel that keeps every lane busy with independent multiply-adds. 0
  // where not measured.
  double fp32_operations_per_s = 0;
};
DeviceCeilings measure_cuda_ceilings(const RunOptions& options);
DeviceCeilings measure_opencl_ceilings(const RunOptions& options);

}  // namespace ladder
