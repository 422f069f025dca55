#pragma once
// OpenMpTargetRung: rungs that offload with OpenMP target directives. Their
// files are compiled by clang++, not by the project's compiler
// (cmake/LadderOpenMpTarget.cmake), so this header is included by them alone.
//
// A target region without `nowait` returns when the device has finished, so
// the host clock (HostRung's) times it; on a GPU that time includes the
// launch. Where no device can run the code (no GPU, or none of the
// architecture it was built for), OpenMP runs each target region on the
// host: the rung then says so in its device's name and counts as a CPU rung.
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "ladder/error.hpp"
#include "ladder/registry.hpp"

#ifndef LADDER_OPENMP_TARGET_DEVICE
#define LADDER_OPENMP_TARGET_DEVICE "?"  // what the build offloads to: "nvptx64 sm_90"
#endif

namespace ladder {

std::string host_cpu_model();  // bench/src/host_rung.cpp

class OpenMpTargetRung : public HostRung {
 public:
  static constexpr Backend kBackend = Backend::openmp_target;

  OpenMpTargetRung() : on_device_(target_region_runs_on_a_device()) {}

  std::string device_name() const override {
    if (!on_device_)
      return "host fallback, no OpenMP offload device for " LADDER_OPENMP_TARGET_DEVICE " here: " +
             host_cpu_model();
    return "OpenMP offload device " + std::to_string(omp_get_default_device()) + " of " +
           std::to_string(omp_get_num_devices()) + " (" LADDER_OPENMP_TARGET_DEVICE ")";
  }
  DeviceKind device_kind() const override { return on_device_ ? DeviceKind::gpu : DeviceKind::cpu; }

 protected:
  // What to ask of num_teams and thread_limit clauses: the GPU's league on
  // a device. On the host fallback each team is a host thread and its
  // `parallel` takes more, and libomp, asked for more threads than the
  // host has, starts fewer and prints a warning into the table ("Cannot
  // form a team with 16384 threads"): there, a team of one thread a core.
  int teams_here(int wanted) const { return on_device_ ? wanted : std::min(wanted, omp_get_num_procs()); }
  int threads_here(int wanted) const { return on_device_ ? wanted : 1; }

  // Before `omp target enter data`: a mapping that does not fit on the device
  // stops the whole process inside libomptarget, so ask for the memory first.
  void require_device_memory(std::size_t bytes) const {
    if (!on_device_) return;
    const int device = omp_get_default_device();
    void* trial = omp_target_alloc(bytes, device);
    if (trial == nullptr)
      throw DeviceError("omp_target_alloc of " + std::to_string(bytes) + " bytes failed on OpenMP offload device " +
                        std::to_string(device) + ": the rung's arrays do not fit in its free memory");
    omp_target_free(trial, device);
  }

 private:
  // Asked of a target region itself, not of the device count: a GPU of
  // another architecture than the build's is counted but runs nothing.
  static bool target_region_runs_on_a_device() {
    const char* policy = std::getenv("OMP_TARGET_OFFLOAD");
    if (omp_get_num_devices() == 0 && policy && strcasecmp(policy, "MANDATORY") == 0)
      throw DeviceError("OMP_TARGET_OFFLOAD=MANDATORY, but there is no OpenMP offload device for " LADDER_OPENMP_TARGET_DEVICE
                        " here: unset it to run the rung on the host fallback");
    int on_host = 1;
#pragma omp target map(from : on_host)
    on_host = omp_is_initial_device();
    return on_host == 0;
  }

  bool on_device_;
};

}  // namespace ladder
