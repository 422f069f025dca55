// cuda_nccl: the mpi rung's split by frames, a GPU for each rank, each filtering its own frames with cuda_network's
// kernels (launch_median_filter). No byte passes between the GPUs while computing, so this rung of the NCCL family
// makes no NCCL call: what it costs is the scatter and the gather, each GPU's share over its own link.
#include <optional>
#include <string>
#include <vector>

#include "bench/problems/median_filter/median_filter.hpp"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"
#include "ladder/nccl.hpp"  // NcclRung: a GPU for each rank
#include "solutions/median_filter/filter_frames_on_gpu.cuh"
#include "solutions/median_filter/frames_of_ranks.hpp"

namespace ladder {
namespace {

class CudaNcclMedianFilter final : public NcclRung {
 public:
  explicit CudaNcclMedianFilter(const RungContext& context)
      : NcclRung(context), settings_(median_filter::settings_of(context.params)) {}
  // Its ranks send nothing while computing.
  std::optional<std::vector<Message>> communication() const override { return std::vector<Message>{}; }

 protected:
  void prepare_ranks(const Arrays* inputs, Arrays* outputs) override {
    select_gpu();
    frames_.emplace(inputs, outputs, rank(), ranks(), communicator());
    const std::size_t part_bytes = frames_->my_bytes();
    frames_in_.resize(part_bytes);
    frames_out_.resize(part_bytes);

    std::size_t free_bytes = 0, total_bytes = 0;
    LADDER_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (2 * part_bytes > free_bytes)
      throw DeviceError("cuda_nccl: rank " + std::to_string(rank()) + "'s frames need " +
                        std::to_string(2 * part_bytes >> 20) + " MiB on its GPU (input and output), more than the " +
                        std::to_string(free_bytes >> 20) + " MiB free; more ranks, or the cuda_streams rung");
    d_image_ = DeviceBuffer<std::byte>(part_bytes);
    d_output_ = DeviceBuffer<std::byte>(part_bytes);
    stream_.emplace();  // on this rank's GPU, now current
  }

  // Upload: each rank its frames, through MPI to its host, then to its GPU.
  void scatter() override {
    frames_->scatter(frames_in_.data());
    LADDER_CUDA_CHECK(
        cudaMemcpyAsync(d_image_.data(), frames_in_.data(), frames_in_.size(), cudaMemcpyHostToDevice, stream_->get()));
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
  }

  // cuda_network's launch on this rank's frames (none where there are more ranks than frames).
  void compute_ranks() override {
    median_filter::filter_frames_on_gpu(*frames_, settings_, d_image_.data(), d_output_.data(), stream_->get());
  }

  // Download: each rank's filtered frames to its host, then to rank 0.
  void gather() override {
    LADDER_CUDA_CHECK(cudaMemcpyAsync(frames_out_.data(), d_output_.data(), frames_out_.size(), cudaMemcpyDeviceToHost,
                                      stream_->get()));
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
    frames_->gather(frames_out_.data());
  }

 private:
  median_filter::Settings settings_;
  std::optional<median_filter::FramesOfRanks> frames_;
  std::vector<std::byte> frames_in_, frames_out_;  // this rank's frames on its host, as bytes of the pixel type
  DeviceBuffer<std::byte> d_image_, d_output_;
  std::optional<CudaStream> stream_;  // after the buffers: destroying a stream waits for it
};

}  // namespace
LADDER_REGISTER_RUNG(median_filter, cuda_nccl, CudaNcclMedianFilter);
}  // namespace ladder
