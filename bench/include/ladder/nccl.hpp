#pragma once
// NCCL for the rungs with a GPU per MPI rank: every call checked, and one
// communicator per rung, bootstrapped over MPI (rank 0 makes NCCL's unique
// id and broadcasts it) and destroyed with the rung.
#include <nccl.h>

#include <cstdlib>
#include <string>

#include "ladder/cuda.cuh"
#include "ladder/error.hpp"
#include "ladder/mpi.hpp"

namespace ladder {

inline void nccl_check(ncclResult_t status, const char* call) {
  if (status != ncclSuccess) throw DeviceError(std::string(call) + " failed: " + ncclGetErrorString(status));
}
#define LADDER_NCCL(call) ::ladder::nccl_check((call), #call)

class NcclCommunicator {
 public:
  NcclCommunicator() = default;
  // Collective: every rank of `world` calls it, each with its own GPU current.
  NcclCommunicator(MPI_Comm world, int rank, int ranks) {
    // NVLink multicast (NVLS) stays off unless the user asks for it: the
    // lent multi-GPU machines must not use it.
    setenv("NCCL_NVLS_ENABLE", "0", 0);
    ncclUniqueId id{};
    if (rank == 0) LADDER_NCCL(ncclGetUniqueId(&id));
    LADDER_MPI(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, world));
    LADDER_NCCL(ncclCommInitRank(&comm_, ranks, id, rank));
  }
  ~NcclCommunicator() {
    if (comm_) ncclCommDestroy(comm_);
  }
  NcclCommunicator(NcclCommunicator&& other) noexcept : comm_(other.comm_) { other.comm_ = nullptr; }
  NcclCommunicator& operator=(NcclCommunicator&& other) noexcept {
    std::swap(comm_, other.comm_);
    return *this;
  }
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  ncclComm_t get() const { return comm_; }

 private:
  ncclComm_t comm_ = nullptr;
};

// NcclRung: an MpiRung with a GPU for every rank, listed, and skipped
// without a GPU, as a CUDA rung. In prepare_ranks() a rung first calls
// select_gpu(), and connect_gpus() once it needs NCCL between the GPUs.
class NcclRung : public MpiRung {
 public:
  static constexpr Backend kBackend = Backend::cuda;
  explicit NcclRung(const RungContext& context) : MpiRung(context) {}
  // Destroying a communicator is collective among a machine's ranks: the
  // other ranks are told to destroy their rung before this one's goes.
  ~NcclRung() override { release_other_ranks(); }

  DeviceKind device_kind() const override { return DeviceKind::gpu; }
  int device_count() const override { return ranks(); }
  std::string device_name() const override {
    return std::to_string(ranks()) + " × " + (gpu_.name[0] ? gpu_.name : "GPU") + " (NCCL)";
  }

 protected:
  // This rank's GPU, made current: one a rank on each machine, in the order of the ranks there.
  const cudaDeviceProp& select_gpu() {
    int gpus = 0;
    LADDER_CUDA_CHECK(cudaGetDeviceCount(&gpus));
    const int device = node_rank() % gpus;
    LADDER_CUDA_CHECK(cudaSetDevice(device));
    LADDER_CUDA_CHECK(cudaGetDeviceProperties(&gpu_, device));
    return gpu_;
  }
  // The NCCL communicator among every rank's GPU (collective).
  void connect_gpus() { communicator_ = NcclCommunicator(communicator(), rank(), ranks()); }
  ncclComm_t nccl() const { return communicator_.get(); }

 private:
  cudaDeviceProp gpu_{};
  NcclCommunicator communicator_;
};

}  // namespace ladder
