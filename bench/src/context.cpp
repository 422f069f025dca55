// The run's context: enough to explain a difference between two runs from
// their files alone (docs/design.md, "Measurement rigour").
#include <sys/utsname.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <thread>
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
          {"bandwidth_kernel", c->bandwidth_kernel},
          {"host_to_device_pinned_bytes_per_s", c->host_to_device_pinned},
          {"device_to_host_pinned_bytes_per_s", c->device_to_host_pinned},
          {"host_to_device_pageable_bytes_per_s", c->host_to_device_pageable},
          {"device_to_host_pageable_bytes_per_s", c->device_to_host_pageable},
          {"both_directions_pinned_bytes_per_s", c->both_directions_pinned},
          {"fp32_operations_per_s", c->fp32_operations_per_s}};
}

#ifdef _OPENMP
const char* proc_bind_name(omp_proc_bind_t bind) {
  switch (bind) {
    case omp_proc_bind_false:
      return "false";
    case omp_proc_bind_true:
      return "true";
    case omp_proc_bind_primary:
      return "primary";
    case omp_proc_bind_close:
      return "close";
    case omp_proc_bind_spread:
      return "spread";
  }
  return "unknown";
}
#endif

nlohmann::json load_json(const HostLoad& load) {
  if (load.one_minute < 0) return nullptr;
  return {load.one_minute, load.five_minutes, load.fifteen_minutes};
}

// The first core's clock as the kernel reports it now (MHz), where readable.
nlohmann::json cpu_mhz() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("cpu MHz", 0) == 0 && line.find(':') != std::string::npos)
      return std::stod(line.substr(line.find(':') + 1));
  return nullptr;
}

// GPU clocks and power limit as the driver reports them (nvidia-smi reads
// NVML); null where there is no NVIDIA driver.
nlohmann::json gpu_clocks() {
  const char* query =
      "nvidia-smi --query-gpu=index,name,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu "
      "--format=csv,noheader 2>/dev/null";
  FILE* pipe = ::popen(query, "r");
  if (!pipe) return nullptr;
  nlohmann::json gpus = nlohmann::json::array();
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe)) {
    std::string line(buffer);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    if (!line.empty()) gpus.push_back(line);
  }
  ::pclose(pipe);
  if (gpus.empty()) return nullptr;
  return {{"fields", "index, name, clocks.sm, clocks.max.sm, clocks.mem, power.limit, temperature.gpu"},
          {"gpus", gpus}};
}

// Absent (null) when the host ceiling was given rather than measured.
nlohmann::json scaling_json(const HostScaling& scaling) {
  if (scaling.threads == 0) return nullptr;
  return {{"threads", scaling.threads},
          {"clock_efficiency", scaling.clock_efficiency},
          {"compute_efficiency", scaling.compute_efficiency},
          {"memory_speedup", scaling.memory_speedup}};
}

nlohmann::json probe_json(const std::vector<MachineProbe>& probes) {
  if (probes.empty()) return nullptr;
  nlohmann::json scalar = nlohmann::json::array(), memory = nlohmann::json::array();
  for (const auto& probe : probes) scalar.push_back(probe.scalar_s), memory.push_back(probe.memory_s);
  return {{"taken", "before each replicate and after the last"}, {"scalar_chain_s", scalar}, {"memory_pass_s", memory}};
}

// The share of all CPU time the hypervisor gave to others during the run.
nlohmann::json steal_fraction(const CpuTicks& before, const CpuTicks& after) {
  if (before.total < 0 || after.total <= before.total) return nullptr;
  return (after.steal - before.steal) / (after.total - before.total);
}

}  // namespace

HostLoad read_host_load() {
  HostLoad load;
  std::ifstream in("/proc/loadavg");
  if (!(in >> load.one_minute >> load.five_minutes >> load.fifteen_minutes)) return {};
  return load;
}

nlohmann::json run_context(const RunOptions& options, const TimingPolicy& policy, const Ceilings& ceilings,
                           const std::string& command_line, const RunReadings& readings) {
  utsname system{};
  uname(&system);
  nlohmann::json openmp = nullptr;
#ifdef _OPENMP
  openmp = {{"version", _OPENMP},
            {"max_threads", omp_get_max_threads()},
            {"OMP_NUM_THREADS", environment("OMP_NUM_THREADS")},
            {"OMP_PROC_BIND", environment("OMP_PROC_BIND")},
            {"OMP_PLACES", environment("OMP_PLACES")},
            {"proc_bind", proc_bind_name(omp_get_proc_bind())}};
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
      // What the machine was doing: read, not configured, so they differ between
      // any two runs. A reference run starts on an idle machine (1-, 5- and
      // 15-minute load averages).
      {"readings",
       {{"load_average_before", load_json(readings.load_before)},
        {"load_average_after", load_json(readings.load_after)},
        {"machine_probe", probe_json(readings.probes)},
        {"cpu_steal_fraction", steal_fraction(readings.ticks_before, readings.ticks_after)},
        {"cpu_mhz", cpu_mhz()},
        {"gpu_clocks", gpu_clocks()}}},
      {"os", std::string(system.sysname) + " " + system.release + " " + system.machine},
      {"compiler", {{"id", LADDER_COMPILER}, {"flags", LADDER_COMPILER_FLAGS}, {"build_type", LADDER_BUILD_TYPE}}},
      {"openmp", openmp},
      {"cuda", {{"devices", cuda_devices()}, {"device_selected", options.cuda_device}}},
      {"opencl", {{"devices", opencl_devices()}, {"device_selected", options.opencl_device}}},
      {"host_memory", options.pinned ? "pinned" : "pageable"},
      {"l2_eviction", !options.warm},
      {"l2_eviction_by", options.warm ? "nothing" : options.evict_by_writing ? "writing" : "reading"},
      {"timing_policy",
       {{"min_time_s", policy.min_time},
        {"min_repetitions", policy.min_repetitions},
        {"max_repetitions", policy.max_repetitions},
        {"noise_target", policy.noise_target},
        {"time_budget_s", policy.time_budget},
        {"derived_transfers", policy.derive_cheap_transfers}}},
      {"ceilings",
       {{"host_bytes_per_s", ceilings.host_bytes_per_s},
        {"host_threads", ceilings.host_threads},
        {"host_kernel", ceilings.host_measurement.kernel},
        {"host_kernels_bytes_per_s", ceilings.host_measurement.kernels},
        {"host_best_over_median", ceilings.host_measurement.best_over_median},
        {"host_scaling", scaling_json(ceilings.host_scaling)},
        {"host_fp32_operations_per_s", ceilings.host_fp32_operations_per_s},
        {"cuda", ceilings_json(ceilings.cuda)},
        {"opencl", ceilings_json(ceilings.opencl)}}}};
  if (!ceilings.communication.is_null()) context["communication"] = ceilings.communication;
  return context;
}

}  // namespace ladder
