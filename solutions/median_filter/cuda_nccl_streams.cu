// cuda_nccl_streams: cuda_nccl_local's data (each rank its own frames, in its own page-locked memory) through
// cuda_streams' pipeline (FrameSlices) on each rank's GPU: while one slice of a rank's frames is filtered the next
// uploads and the one before downloads, both directions of each GPU's link at once. The one change from
// cuda_nccl_local is the overlap; like cuda_streams, compute() runs from each rank's host frames to its host frames
// (upload and download are empty), so its compute time is a transfer-inclusive time, ended by the slowest rank.
#include <optional>
#include <string>
#include <vector>

#include "bench/problems/median_filter/median_filter.hpp"
#include "ladder/cuda.cuh"
#include "ladder/nccl.hpp"  // NcclRung: a GPU for each rank
#include "solutions/median_filter/frame_slices.cuh"
#include "solutions/median_filter/frames_of_ranks.hpp"

namespace ladder {
namespace {

class CudaNcclStreamsMedianFilter final : public NcclRung {
 public:
  explicit CudaNcclStreamsMedianFilter(const RungContext& context)
      : NcclRung(context), settings_(median_filter::settings_of(context.params)) {}
  // Its ranks send nothing while computing.
  std::optional<std::vector<Message>> communication() const override { return std::vector<Message>{}; }
  bool uses_pinned_memory() const override { return true; }  // its own staging, whatever --pinned says

 protected:
  void prepare_ranks(const Arrays* inputs, Arrays* outputs) override {
    select_gpu();
    frames_.emplace(inputs, outputs, rank(), ranks(), communicator());
    frames_in_ = PinnedHostBuffer<std::byte>(frames_->my_bytes());
    frames_out_ = PinnedHostBuffer<std::byte>(frames_->my_bytes());
    // Once, untimed: from now on each rank holds its own frames (read from the file under `ladder solve`).
    frames_->receive_own_frames(frames_in_.data(), input_file("image"));
    stream_.emplace();                    // on this rank's GPU, now current
    slices_.emplace(frames_->mine(), frames_->frame_bytes, 0, "cuda_nccl_streams");
  }

  // Each rank's frames up, filtered and down, overlapped; the step ends when the slowest rank's have.
  void compute_ranks() override {
    slices_->filter(frames_in_.data(), frames_out_.data(), frames_->dtype, settings_, stream_->get(),
                    MedianKernel::network);
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
  }

  // For the check only: every rank's filtered frames into rank 0's output.
  void collect_for_check() override { frames_->gather(frames_out_.data()); }

 private:
  median_filter::Settings settings_;
  std::optional<median_filter::FramesOfRanks> frames_;
  PinnedHostBuffer<std::byte> frames_in_, frames_out_;  // this rank's frames, as bytes of the pixel type
  std::optional<CudaStream> stream_;
  std::optional<median_filter::FrameSlices> slices_;  // last: its streams wait for their copies when destroyed
};

}  // namespace
LADDER_REGISTER_RUNG(median_filter, cuda_nccl_streams, CudaNcclStreamsMedianFilter);
}  // namespace ladder
