// cuda_nccl: the mpi rung with a GPU for every rank. Each rank copies its
// part of the values to its own GPU and counts it there with the cuda rung's
// kernel; one ncclReduce then adds the GPUs' 256 counts on rank 0's GPU,
// GPU to GPU (NVLink where there is one), never through the hosts.
#include <optional>
#include <vector>

#include "kernels/histogram/histogram_shared.cuh"
#include "ladder/cuda.cuh"
#include "ladder/nccl.hpp"

namespace ladder {
namespace {

class CudaNcclHistogram final : public NcclRung {
 public:
  explicit CudaNcclHistogram(const RungContext& context) : NcclRung(context) {}
  std::optional<std::vector<Message>> communication() const override {
    return std::vector<Message>{{"reduce", 256 * sizeof(std::uint32_t), 1}};
  }

 protected:
  void prepare_ranks(const Arrays* inputs, Arrays* outputs) override {
    const cudaDeviceProp& properties = select_gpu();

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
    for (DeviceBuffer<std::uint32_t>& set : d_counts_) {
      set = DeviceBuffer<std::uint32_t>(256);
      LADDER_CUDA_CHECK(cudaMemsetAsync(set.data(), 0, set.bytes(), stream_->get()));
    }
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
    d_total_ = DeviceBuffer<std::uint32_t>(256);
    // The cuda rung's grid: the blocks that fit on the GPU at once, capped by the work.
    int per_sm = 0;
    LADDER_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, histogram_shared, kHistogramThreads, 0));
    const std::size_t wanted = ceil_div(std::max<std::size_t>(1, part_.size()), 16 * kVectorsPerThread);
    blocks_ = static_cast<unsigned>(std::min<std::size_t>(wanted, std::size_t(per_sm) * properties.multiProcessorCount));
    connect_gpus();
  }

  // Upload: each rank its part, through MPI to its host, then to its GPU.
  void scatter() override {
    LADDER_MPI(MPI_Scatterv(values_, parts_.counts.data(), parts_.offsets.data(), MPI_UNSIGNED_CHAR, part_.data(), parts_.counts[rank()],
                            MPI_UNSIGNED_CHAR, 0, communicator()));
    LADDER_CUDA_CHECK(cudaMemcpyAsync(d_values_.data(), part_.data(), part_.size(), cudaMemcpyHostToDevice,
                                      stream_->get()));
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
  }

  void compute_ranks() override {
    // As the cuda rung: each call adds into the set the call before zeroed.
    current_ = 1 - current_;
    histogram_shared<<<blocks_, kHistogramThreads, 0, stream_->get()>>>(
        d_values_.data(), part_.size(), d_counts_[current_].data(), d_counts_[1 - current_].data());
    LADDER_CUDA_CHECK_LAUNCH();
    // The GPUs' counts added on rank 0's GPU, on the same stream: after the kernel, GPU to GPU.
    LADDER_NCCL(ncclReduce(d_counts_[current_].data(), d_total_.data(), 256, ncclUint32, ncclSum, 0,
                           nccl(), stream_->get()));
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
  }

  // Download: rank 0's GPU holds the total.
  void gather() override {
    if (rank() == 0)
      LADDER_CUDA_CHECK(cudaMemcpy(counts_, d_total_.data(), 256 * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  }

 private:
  static constexpr std::size_t kVectorsPerThread = 8;
  const std::uint8_t* values_ = nullptr;  // rank 0 only: the harness's arrays
  std::uint32_t* counts_ = nullptr;
  Parts parts_;  // every rank's part
  std::vector<std::uint8_t> part_;
  std::optional<CudaStream> stream_;
  DeviceBuffer<std::uint8_t> d_values_;
  DeviceBuffer<std::uint32_t> d_counts_[2];  // this call's counts and the next call's, in turn
  DeviceBuffer<std::uint32_t> d_total_;      // rank 0's: every GPU's counts added
  int current_ = 1;
  unsigned blocks_ = 1;
};

}  // namespace
LADDER_REGISTER_RUNG(histogram, cuda_nccl, CudaNcclHistogram);
}  // namespace ladder
