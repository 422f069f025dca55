// The communication probe's NCCL side (measure_communication, mpi_rung.cpp
// times it): GPU to GPU as the cuda_nccl rungs send, on the GPU a rung on
// this rank would take, each operation waited for on the host. Built where
// the build has NCCL; every call checked, so that a failure names it.
#include <memory>
#include <optional>

#include "ladder/nccl.hpp"

namespace ladder {
namespace {

class NcclOps final : public CommunicationOps {
 public:
  NcclOps(std::size_t max_bytes, int node_rank) {
    LADDER_CUDA_CHECK(cudaGetDevice(&restore_.device));
    int gpus = 0;
    LADDER_CUDA_CHECK(cudaGetDeviceCount(&gpus));
    LADDER_CUDA_CHECK(cudaSetDevice(node_rank % gpus));  // as NcclRung::select_gpu
    int rank = 0, ranks = 1;
    LADDER_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    LADDER_MPI(MPI_Comm_size(MPI_COMM_WORLD, &ranks));
    next_ = (rank + 1) % ranks, previous_ = (rank + ranks - 1) % ranks;
    d_send_ = DeviceBuffer<float>(max_bytes / sizeof(float));
    d_receive_ = DeviceBuffer<float>(max_bytes / sizeof(float));
    LADDER_CUDA_CHECK(cudaMemset(d_send_.data(), 0, d_send_.bytes()));
    stream_.emplace();
    communicator_ = NcclCommunicator(MPI_COMM_WORLD, rank, ranks);
  }
  void exchange(std::size_t bytes) override {
    LADDER_NCCL(ncclGroupStart());
    LADDER_NCCL(ncclSend(d_send_.data(), bytes, ncclChar, next_, communicator_.get(), stream_->get()));
    LADDER_NCCL(ncclRecv(d_receive_.data(), bytes, ncclChar, previous_, communicator_.get(), stream_->get()));
    LADDER_NCCL(ncclGroupEnd());
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
  }
  void allreduce(std::size_t bytes) override {
    LADDER_NCCL(ncclAllReduce(d_send_.data(), d_receive_.data(), bytes / sizeof(float), ncclFloat, ncclSum,
                              communicator_.get(), stream_->get()));
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
  }
  void reduce(std::size_t bytes) override {
    LADDER_NCCL(ncclReduce(d_send_.data(), d_receive_.data(), bytes / sizeof(float), ncclFloat, ncclSum, 0,
                           communicator_.get(), stream_->get()));
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
  }

 private:
  // Rank 0's harness goes on with the GPU it had: made current again last of all.
  struct CurrentDevice {
    int device = 0;
    ~CurrentDevice() { cudaSetDevice(device); }
  } restore_;
  int next_ = 0, previous_ = 0;
  NcclCommunicator communicator_;  // first: destroyed after the stream and buffers it used
  DeviceBuffer<float> d_send_, d_receive_;
  std::optional<CudaStream> stream_;
};

std::unique_ptr<CommunicationOps> make_nccl_ops(std::size_t max_bytes, int node_rank) {
  return std::make_unique<NcclOps>(max_bytes, node_rank);
}
[[maybe_unused]] const bool registered = register_nccl_ops(make_nccl_ops);

}  // namespace
}  // namespace ladder
