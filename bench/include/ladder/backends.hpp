#pragma once
// What each device backend can tell the harness, with or without the
// backend built. Implemented in bench/cuda and bench/opencl, or as stubs.
#include <optional>

#include <nlohmann/json.hpp>

#include "ladder/registry.hpp"

namespace ladder {

Availability cuda_availability(const RunOptions& options);
Availability opencl_availability(const RunOptions& options);
Availability mpi_availability();
Availability python_availability();  // an interpreter with NumPy (ladder/python.hpp)

// At start-up, under mpirun: every rank but 0 follows rank 0's MPI rungs and
// returns its exit status when rank 0 is done; rank 0 (and a process not
// started by mpirun) gets nullopt and runs the command. bench/mpi, or a stub.
std::optional<int> start_mpi_rank();
// `--ranks N` on the command line of any command but `check`: runs the same
// command as N MPI ranks under mpirun, supervised (ladder/mpi_job.hpp), and
// gives its exit status; without it, nullopt at once.
std::optional<int> run_with_ranks(int argc, char** argv);
// The N of `--ranks N`: a UsageError unless it is 1 to 1024.
int ranks_from_text(const std::string& value);
// Words for the verdicts where an MPI job goes wrong (ladder/job_board.hpp):
// the case the next rung made is checked on (`ladder check` names it;
// otherwise its parameters), and the limit on one step (--hang-limit).
void set_mpi_case(const std::string& text);
void set_mpi_hang_limit(double seconds);
// How many ranks of this MPI job run on this machine (1 outside mpirun).
int mpi_ranks_on_this_machine();
// How many ranks this MPI job has in all (1 outside mpirun, and without MPI).
int mpi_job_ranks();
// Whether this process was started by mpirun (or another PMIx launcher).
bool launched_by_mpirun();
// In a job of several MPI ranks, on rank 0 (the others join it): the time of
// an exchange between neighbours, of an allreduce and of a reduce to rank 0
// against message size, through MPI and, with `nccl` where the build has
// NCCL, GPU to GPU; the results' context.communication
// (reports/results.schema.json). Null outside such a job.
nlohmann::json measure_communication(bool nccl);

// For `ladder devices` and the results' context.
nlohmann::json cuda_devices();
nlohmann::json opencl_devices();

// Measured ceilings of the selected device (0 when it cannot be measured).
struct DeviceCeilings {
  std::string device;
  double copy_bytes_per_s = 0;  // memory bandwidth, bytes read + written: the best of bandwidth_kernel's
  std::string bandwidth_kernel;  // which set it: cudaMemcpy, or STREAM copy, add or triad
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

// OpenCL's bandwidth probe is a buffer copy alone. An OpenCL device that is
// the GPU CUDA measured (NVIDIA's platform names it as CUDA does, then the
// platform in brackets) has the same memory, so where CUDA's probe (STREAM
// kernels too) found more, OpenCL's ceiling becomes CUDA's, named so.
// Returns whether it did.
bool adopt_cuda_bandwidth_of_the_same_gpu(DeviceCeilings& opencl, const DeviceCeilings& cuda);

}  // namespace ladder
