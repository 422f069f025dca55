// cuda_nccl_local: cuda_nccl's split by frames, with the data where a distributed program keeps it: each rank
// holds its own frames in its own page-locked host memory, and each GPU copies them up and the filtered frames
// down over its own link. The one change from cuda_nccl is where the frames wait between the steps:
//   cuda_nccl        upload = rank 0's pageable image -> MPI (through rank 0) -> each rank's host -> its GPU
//   cuda_nccl_local  upload = each rank's pinned frames -> its GPU, all ranks at once
// Each rank gets its frames once, untimed, in prepare: under `ladder solve` it reads them from the input file
// itself, else rank 0 sends them (FramesOfRanks::receive_own_frames). Rank 0 gathers the filtered frames once,
// untimed, for the check (collect_for_check). So the transfer-inclusive time is each rank's own copies and
// filter, ended by the slowest rank, as compute-only is.
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

class CudaNcclLocalMedianFilter final : public NcclRung {
 public:
  explicit CudaNcclLocalMedianFilter(const RungContext& context)
      : NcclRung(context), settings_(median_filter::settings_of(context.params)) {}
  // Its ranks send nothing while computing.
  std::optional<std::vector<Message>> communication() const override { return std::vector<Message>{}; }
  bool uses_pinned_memory() const override { return true; }  // its own staging, whatever --pinned says

 protected:
  void prepare_ranks(const Arrays* inputs, Arrays* outputs) override {
    select_gpu();
    frames_.emplace(inputs, outputs, rank(), ranks(), communicator());
    const std::size_t part_bytes = frames_->my_bytes();
    std::size_t free_bytes = 0, total_bytes = 0;
    LADDER_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (2 * part_bytes > free_bytes)
      throw DeviceError("cuda_nccl_local: rank " + std::to_string(rank()) + "'s frames need " +
                        std::to_string(2 * part_bytes >> 20) + " MiB on its GPU (input and output), more than the " +
                        std::to_string(free_bytes >> 20) + " MiB free; more ranks, or the cuda_streams rung");
    // This rank's frames, page-locked: copies from them run at the link's speed, and asynchronously.
    frames_in_ = PinnedHostBuffer<std::byte>(part_bytes);
    frames_out_ = PinnedHostBuffer<std::byte>(part_bytes);
    // Once, untimed: from now on each rank holds its own frames (read from the file under `ladder solve`).
    frames_->receive_own_frames(frames_in_.data(), input_file("image"));
    d_image_ = DeviceBuffer<std::byte>(part_bytes);
    d_output_ = DeviceBuffer<std::byte>(part_bytes);
    stream_.emplace();  // on this rank's GPU, now current
  }

  // Upload: each rank's own frames to its GPU; no MPI.
  void scatter() override {
    LADDER_CUDA_CHECK(cudaMemcpyAsync(d_image_.data(), frames_in_.data(), frames_in_.bytes(), cudaMemcpyHostToDevice,
                                      stream_->get()));
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
  }

  void compute_ranks() override {
    median_filter::filter_frames_on_gpu(*frames_, settings_, d_image_.data(), d_output_.data(), stream_->get());
  }

  // Download: each rank's filtered frames to its own host memory; no MPI.
  void gather() override {
    LADDER_CUDA_CHECK(cudaMemcpyAsync(frames_out_.data(), d_output_.data(), frames_out_.bytes(),
                                      cudaMemcpyDeviceToHost, stream_->get()));
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
  }

  // For the check only: every rank's filtered frames into rank 0's output.
  void collect_for_check() override { frames_->gather(frames_out_.data()); }

 private:
  median_filter::Settings settings_;
  std::optional<median_filter::FramesOfRanks> frames_;
  PinnedHostBuffer<std::byte> frames_in_, frames_out_;  // this rank's frames, as bytes of the pixel type
  DeviceBuffer<std::byte> d_image_, d_output_;
  std::optional<CudaStream> stream_;  // after the buffers: destroying a stream waits for it
};

}  // namespace
LADDER_REGISTER_RUNG(median_filter, cuda_nccl_local, CudaNcclLocalMedianFilter);
}  // namespace ladder
