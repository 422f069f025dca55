// The run's context: enough to explain a difference between two runs from
// their files alone (DESIGN.md, "Measurement rigour").
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <thread>

#include <sys/utsname.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "ladder/backends.hpp"
#include "ladder/harness.hpp"

namespace ladder {

std::string host_cpu_model();  // host_rung.cpp

namespace {

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line)) return "not readable";
  return line;
}

nlohmann::json environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? nlohmann::json(value) : nlohmann::json();
}

std::string utc_now() {
  std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

nlohmann::json ceilings_json(const std::optional<DeviceCeilings>& c) {
  if (!c) return nullptr;
  return {{"device", c->device},
          {"copy_bytes_per_s", c->copy_bytes_per_s},
          {"host_to_device_pinned_bytes_per_s", c->host_to_device_pinned},
          {"device_to_host_pinned_bytes_per_s", c->device_to_host_pinned},
          {"host_to_device_pageable_bytes_per_s", c->host_to_device_pageable},
          {"device_to_host_pageable_bytes_per_s", c->device_to_host_pageable}};
}

}  // namespace

nlohmann::json run_context(const RunOptions& options, const Ceilings& ceilings, const std::string& command_line) {
  utsname system{};
  uname(&system);
  nlohmann::json openmp = nullptr;
#ifdef _OPENMP
  openmp = {{"version", _OPENMP},
            {"max_threads", omp_get_max_threads()},
            {"OMP_NUM_THREADS", environment("OMP_NUM_THREADS")},
            {"OMP_PROC_BIND", environment("OMP_PROC_BIND")},
            {"OMP_PLACES", environment("OMP_PLACES")}};
#endif
  nlohmann::json context = {
      {"suite", {{"name", "hpc-ladder"}, {"version", LADDER_VERSION}, {"git_revision", LADDER_GIT_REVISION}}},
      {"time", utc_now()},
      {"command_line", command_line},
      {"host",
       {{"cpu_model", host_cpu_model()},
        {"hardware_threads", std::thread::hardware_concurrency()},
        {"threads_requested", options.threads},
        {"cpu_governor", read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")},
        {"cpu_boost", read_first_line("/sys/devices/system/cpu/cpufreq/boost")}}},
      {"os", std::string(system.sysname) + " " + system.release + " " + system.machine},
      {"compiler", {{"id", LADDER_COMPILER}, {"flags", LADDER_COMPILER_FLAGS}, {"build_type", LADDER_BUILD_TYPE}}},
      {"openmp", openmp},
      {"cuda", {{"devices", cuda_devices()}, {"device_selected", options.cuda_device}}},
      {"opencl", {{"devices", opencl_devices()}, {"device_selected", options.opencl_device}}},
      {"host_memory", options.pinned ? "pinned" : "pageable"},
      {"l2_eviction", !options.warm},
      {"ceilings",
       {{"host_bytes_per_s", ceilings.host_bytes_per_s},
        {"host_threads", ceilings.host_threads},
        {"cuda", ceilings_json(ceilings.cuda)},
        {"opencl", ceilings_json(ceilings.opencl)}}}};
  return context;
}

}  // namespace ladder
