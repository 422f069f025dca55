#pragma once
// NCCL for the rungs with a GPU per MPI rank: every call checked, and one
// communicator per rung, bootstrapped over MPI (rank 0 makes NCCL's unique
// id and broadcasts it) and destroyed with the rung.
#include <nccl.h>

#include <cstdlib>
#include <string>

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

}  // namespace ladder
