// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// cuda_nccl: the mpi rung with a GPU for every rank. Each rank copies its
// part of the values to its own GPU and counts it there with the cuda rung's
// kernel (the solution's, given); one ncclReduce then adds the GPUs' 256
// counts on rank 0's GPU, GPU to GPU, never through the hosts. Given: the
// GPU each rank takes, its buffers and stream, the scatter through MPI and
// the kernel. You write the copies to and from the GPU and the NCCL call
// (task sheet, the cuda_nccl step).
#include "ladder/error.hpp"
// ==== end
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
    // ==== yours
    // TODO: this rank's part (part_, on its host now) to its GPU, d_values_,
    // on this rank's stream (stream_->get()), and wait for the copy to end:
    // the upload's time ends when the part is on the GPU.
    LADDER_TODO("cuda_nccl: copy the part to the GPU in scatter() of exercises/histogram/cuda_nccl.cu, then delete this line");
    // ==== end
  }

  void compute_ranks() override {
    // As the cuda rung: each call adds into the set the call before zeroed.
    current_ = 1 - current_;
    histogram_shared<<<blocks_, kHistogramThreads, 0, stream_->get()>>>(
        d_values_.data(), part_.size(), d_counts_[current_].data(), d_counts_[1 - current_].data());
    LADDER_CUDA_CHECK_LAUNCH();
    // ==== yours
    // TODO: every GPU's 256 counts (d_counts_[current_]) added into
    // d_total_ on rank 0's GPU: one ncclReduce (ncclUint32, ncclSum, root
    // 0, the communicator nccl()) on the same stream as the kernel, so that
    // it starts when the counting ends; then wait for the stream. Why not
    // MPI_Reduce here?
    LADDER_TODO("cuda_nccl: add the GPUs' counts in compute_ranks() of exercises/histogram/cuda_nccl.cu, then delete this line");
    // ==== end
  }

  // Download: rank 0's GPU holds the total.
  void gather() override {
    // ==== yours
    // TODO: on rank 0 only, the 256 total counts from d_total_ to the
    // harness's counts_ (cudaMemcpy).
    LADDER_TODO("cuda_nccl: copy the counts back in gather() of exercises/histogram/cuda_nccl.cu, then delete this line");
    // ==== end
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
