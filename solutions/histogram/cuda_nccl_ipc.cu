// cuda_nccl_ipc: cuda_nccl without the reduce. Every rank's kernel adds its blocks' counts straight into rank 0's
// GPU memory, over NVLink: rank 0 shares its two sets of counts through CUDA IPC (cudaIpcGetMemHandle, the handle
// sent by MPI, cudaIpcOpenMemHandle on the other ranks), so the one launch a rank makes is the whole step, and the
// total is on rank 0's GPU when the slowest rank's kernel ends. The one change from cuda_nccl is where the
// kernel's atomicAdds go; what it saves is ncclReduce's own launch and synchronisation (7.4 µs on two H200s,
// against about 36 µs of counting each: solutions/histogram/README.md).
//
// CUDA IPC joins the processes of one machine only, and needs the GPUs to reach each other's memory (peer access:
// NVLink, or PCIe where the platform allows it); elsewhere the rung stops with a message naming cuda_nccl.
#include <optional>
#include <string>
#include <vector>

#include "kernels/histogram/histogram_shared.cuh"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"
#include "ladder/nccl.hpp"  // NcclRung: a GPU for each rank

namespace ladder {
namespace {

// Another process's device allocation, opened in this one (cudaIpcOpenMemHandle) until destroyed.
class OpenedIpcMemory {
 public:
  OpenedIpcMemory() = default;
  explicit OpenedIpcMemory(const cudaIpcMemHandle_t& handle) {
    LADDER_CUDA_CHECK(cudaIpcOpenMemHandle(&data_, handle, cudaIpcMemLazyEnablePeerAccess));
  }
  ~OpenedIpcMemory() {
    if (data_) cudaIpcCloseMemHandle(data_);
  }
  OpenedIpcMemory(OpenedIpcMemory&& other) noexcept : data_(other.data_) { other.data_ = nullptr; }
  OpenedIpcMemory& operator=(OpenedIpcMemory&& other) noexcept {
    std::swap(data_, other.data_);
    return *this;
  }
  std::uint32_t* counts() const { return static_cast<std::uint32_t*>(data_); }

 private:
  void* data_ = nullptr;
};

class CudaNcclIpcHistogram final : public NcclRung {
 public:
  explicit CudaNcclIpcHistogram(const RungContext& context) : NcclRung(context) {}
  // Its messages are its kernels' atomicAdds into another GPU, which the probe of the network does not time:
  // no prediction rather than a wrong one.
  std::optional<std::vector<Message>> communication() const override { return std::nullopt; }

 protected:
  void prepare_ranks(const Arrays* inputs, Arrays* outputs) override {
    const cudaDeviceProp& properties = select_gpu();
    refuse_ranks_on_other_machines();

    long long n = 0;
    if (rank() == 0) {
      values_ = inputs->at("values").view<std::uint8_t>().data();
      n = static_cast<long long>(inputs->at("values").size());
      counts_ = outputs->at("counts").view<std::uint32_t>().data();
    }
    LADDER_MPI(MPI_Bcast(&n, 1, MPI_LONG_LONG, 0, communicator()));
    parts_ = parts_of(n, ranks());
    part_.resize(parts_.counts[rank()]);
    stream_.emplace();  // on this rank's GPU, now current
    d_values_ = DeviceBuffer<std::uint8_t>(std::max<std::size_t>(1, part_.size()));

    // Rank 0's two sets of counts, zeroed, and their IPC handles to every rank.
    cudaIpcMemHandle_t handles[2]{};
    if (rank() == 0) {
      for (int set = 0; set < 2; ++set) {
        d_rank0_counts_[set] = DeviceBuffer<std::uint32_t>(256);
        LADDER_CUDA_CHECK(cudaMemset(d_rank0_counts_[set].data(), 0, d_rank0_counts_[set].bytes()));
        LADDER_CUDA_CHECK(cudaIpcGetMemHandle(&handles[set], d_rank0_counts_[set].data()));
        counts_on_rank0_[set] = d_rank0_counts_[set].data();
      }
    }
    LADDER_MPI(MPI_Bcast(handles, sizeof handles, MPI_BYTE, 0, communicator()));
    if (rank() != 0)
      for (int set = 0; set < 2; ++set) {
        opened_[set] = OpenedIpcMemory(handles[set]);
        counts_on_rank0_[set] = opened_[set].counts();
      }

    // The cuda rung's grid: the blocks that fit on the GPU at once, capped by the work.
    int per_sm = 0;
    LADDER_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, histogram_shared, kHistogramThreads, 0));
    const std::size_t wanted = ceil_div(std::max<std::size_t>(1, part_.size()), 16 * kVectorsPerThread);
    blocks_ = static_cast<unsigned>(std::min<std::size_t>(wanted, std::size_t(per_sm) * properties.multiProcessorCount));
  }

  // Upload: each rank its part, through MPI to its host, then to its GPU (as cuda_nccl).
  void scatter() override {
    LADDER_MPI(MPI_Scatterv(values_, parts_.counts.data(), parts_.offsets.data(), MPI_UNSIGNED_CHAR, part_.data(),
                            parts_.counts[rank()], MPI_UNSIGNED_CHAR, 0, communicator()));
    LADDER_CUDA_CHECK(cudaMemcpyAsync(d_values_.data(), part_.data(), part_.size(), cudaMemcpyHostToDevice,
                                      stream_->get()));
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
  }

  void compute_ranks() override {
    // As the cuda rung's two sets, on rank 0's GPU for every rank: each call adds into the set that the call
    // before zeroed. A call's kernels all end before the next call starts (the step ends when the slowest rank's
    // does), so no rank zeroes a set that another still adds into.
    current_ = 1 - current_;
    histogram_shared<<<blocks_, kHistogramThreads, 0, stream_->get()>>>(
        d_values_.data(), part_.size(), counts_on_rank0_[current_], counts_on_rank0_[1 - current_]);
    LADDER_CUDA_CHECK_LAUNCH();
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
  }

  // Download: rank 0's GPU holds the total once every rank's kernel has ended (the end of the compute step).
  void gather() override {
    if (rank() == 0)
      LADDER_CUDA_CHECK(cudaMemcpy(counts_, counts_on_rank0_[current_], 256 * sizeof(std::uint32_t),
                                   cudaMemcpyDeviceToHost));
  }

 private:
  static constexpr std::size_t kVectorsPerThread = 8;

  void refuse_ranks_on_other_machines() const {
    MPI_Comm machine;
    LADDER_MPI(MPI_Comm_split_type(communicator(), MPI_COMM_TYPE_SHARED, rank(), MPI_INFO_NULL, &machine));
    int here = 0;
    MPI_Comm_size(machine, &here);
    MPI_Comm_free(&machine);
    if (here != ranks())
      throw UsageError("cuda_nccl_ipc: CUDA IPC joins the GPUs of one machine, and these " + std::to_string(ranks()) +
                       " ranks are not all on one (" + std::to_string(here) +
                       " on this one): use cuda_nccl, which reduces through NCCL");
  }

  const std::uint8_t* values_ = nullptr;  // rank 0 only: the harness's arrays
  std::uint32_t* counts_ = nullptr;
  Parts parts_;  // every rank's part
  std::vector<std::uint8_t> part_;
  std::optional<CudaStream> stream_;
  DeviceBuffer<std::uint8_t> d_values_;
  DeviceBuffer<std::uint32_t> d_rank0_counts_[2];  // rank 0 only: this call's counts and the next call's, in turn
  OpenedIpcMemory opened_[2];                       // the other ranks: the same two, opened in this process
  std::uint32_t* counts_on_rank0_[2] = {nullptr, nullptr};  // on every rank: where its kernel adds
  int current_ = 1;
  unsigned blocks_ = 1;
};

}  // namespace
LADDER_REGISTER_RUNG(histogram, cuda_nccl_ipc, CudaNcclIpcHistogram);
}  // namespace ladder
