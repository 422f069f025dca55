// cuda_nccl: the mpi rung's split by frames, a GPU for each rank, each filtering its own frames with cuda_network's
// kernels (launch_median_filter). No byte passes between the GPUs while computing, so this rung of the NCCL family
// makes no NCCL call: what it costs is the scatter and the gather, each GPU's share over its own link.
#include <optional>
#include <string>
#include <vector>

#include "bench/problems/median_filter/median_filter.hpp"
#include "kernels/median_filter/median_filter.cuh"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"
#include "ladder/nccl.hpp"  // NcclRung: a GPU for each rank

namespace ladder {
namespace {

class CudaNcclMedianFilter final : public NcclRung {
 public:
  explicit CudaNcclMedianFilter(const RungContext& context)
      : NcclRung(context), settings_(median_filter::settings_of(context.params)) {}
  ~CudaNcclMedianFilter() override {
    if (frame_type_ != MPI_DATATYPE_NULL) MPI_Type_free(&frame_type_);
  }

 protected:
  void prepare_ranks(const Arrays* inputs, Arrays* outputs) override {
    select_gpu();

    long long shape[4] = {0, 0, 0, 0};  // frames, height, width, dtype
    if (rank() == 0) {
      const median_filter::Stack stack = median_filter::stack_of(inputs->at("image"));
      shape[0] = static_cast<long long>(stack.frames), shape[1] = static_cast<long long>(stack.height);
      shape[2] = static_cast<long long>(stack.width), shape[3] = static_cast<long long>(inputs->at("image").dtype());
      image_ = inputs->at("image").raw();
      output_ = outputs->at("output").raw();
    }
    LADDER_MPI(MPI_Bcast(shape, 4, MPI_LONG_LONG, 0, communicator()));
    stack_ = {static_cast<std::size_t>(shape[0]), static_cast<std::size_t>(shape[1]),
              static_cast<std::size_t>(shape[2])};
    dtype_ = static_cast<DType>(shape[3]);

    // Messages count whole frames (a stack's bytes can pass an int's range).
    const std::size_t frame_bytes = stack_.frame_pixels() * dtype_size(dtype_);
    if (frame_type_ != MPI_DATATYPE_NULL) MPI_Type_free(&frame_type_);
    LADDER_MPI(MPI_Type_contiguous(static_cast<int>(frame_bytes), MPI_BYTE, &frame_type_));
    LADDER_MPI(MPI_Type_commit(&frame_type_));
    parts_ = parts_of(static_cast<long long>(stack_.frames), ranks());
    const std::size_t part_bytes = std::size_t(parts_.counts[rank()]) * frame_bytes;
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
    LADDER_MPI(MPI_Scatterv(image_, parts_.counts.data(), parts_.offsets.data(), frame_type_, frames_in_.data(), parts_.counts[rank()],
                            frame_type_, 0, communicator()));
    LADDER_CUDA_CHECK(
        cudaMemcpyAsync(d_image_.data(), frames_in_.data(), frames_in_.size(), cudaMemcpyHostToDevice, stream_->get()));
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
  }

  // cuda_network's launch on this rank's frames (none where there are more ranks than frames).
  void compute_ranks() override {
    const MedianSettings settings{settings_.size, settings_.remove_outlier, settings_.bright, settings_.diff};
    median_filter::with_pixel_type(dtype_, [&](auto tag) {
      using T = decltype(tag);
      launch_median_filter(reinterpret_cast<const T*>(d_image_.data()), reinterpret_cast<T*>(d_output_.data()),
                           std::size_t(parts_.counts[rank()]), int(stack_.height), int(stack_.width), settings,
                           stream_->get(), MedianKernel::network);
    });
    LADDER_CUDA_CHECK_LAUNCH();
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
  }

  // Download: each rank's filtered frames to its host, then to rank 0.
  void gather() override {
    LADDER_CUDA_CHECK(cudaMemcpyAsync(frames_out_.data(), d_output_.data(), frames_out_.size(), cudaMemcpyDeviceToHost,
                                      stream_->get()));
    LADDER_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
    LADDER_MPI(MPI_Gatherv(frames_out_.data(), parts_.counts[rank()], frame_type_, output_, parts_.counts.data(), parts_.offsets.data(),
                           frame_type_, 0, communicator()));
  }

 private:
  median_filter::Settings settings_;
  const void* image_ = nullptr;  // rank 0 only: the harness's arrays
  void* output_ = nullptr;
  median_filter::Stack stack_;
  DType dtype_ = DType::f32;
  MPI_Datatype frame_type_ = MPI_DATATYPE_NULL;
  Parts parts_;  // every rank's frames
  std::vector<std::byte> frames_in_, frames_out_;  // this rank's frames on its host, as bytes of the pixel type
  DeviceBuffer<std::byte> d_image_, d_output_;
  std::optional<CudaStream> stream_;  // after the buffers: destroying a stream waits for it
};

}  // namespace
LADDER_REGISTER_RUNG(median_filter, cuda_nccl, CudaNcclMedianFilter);
}  // namespace ladder
