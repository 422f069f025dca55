// cuda_streams: a stack of any size, through the cuda rung's kernels in
// slices of whole frames. The slice is sized from the free device memory
// (cudaMemGetInfo) and the frame size; each of kStreams streams owns a
// slice's device buffers and pinned staging buffers, so that while one
// slice is filtered, the next is uploading and the previous downloading.
// When an allocation fails (out of memory, or above device_memory_cap_mb)
// the slice is halved and the allocation retried; if not even one frame
// fits, the rung stops with an error. It never hands back its input as if
// it had filtered it.
//
// Copies overlapped with the filter are the idea, so compute() runs from
// host input to host output (upload and download are empty): its compute
// time is a transfer-inclusive time, to set beside the cuda rung's.
#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <string>

#include "bench/problems/median_filter.hpp"
#include "kernels/median_filter/median_filter.cuh"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"

namespace ladder {
namespace {

constexpr int kStreams = 3;            // upload, filter, download at once
constexpr std::size_t kMinSlices = 16;  // many slices, so that the pipeline fills
constexpr double kFreeShare = 0.9;     // of the free memory: leave the driver some room

class CudaStreamsMedianFilter final : public CudaRung {
 public:
  explicit CudaStreamsMedianFilter(const RungContext& context)
      : CudaRung(context), settings_(median_filter::settings_of(context.params)) {
    if (context.params.has("device_memory_cap_mb") && context.params.integer("device_memory_cap_mb") > 0)
      cap_bytes_ = std::size_t(context.params.integer("device_memory_cap_mb")) << 20;
  }

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = &inputs.at("image");
    output_ = &outputs.at("output");
    stack_ = median_filter::stack_of(*image_);
    frame_bytes_ = stack_.frame_pixels() * dtype_size(image_->dtype());

    // First try: what the free memory holds (two buffers per stream), and
    // no more than a share of the stack. The cap is not consulted here: it
    // stands for memory that someone else takes after the query, so the
    // allocation below is where it bites.
    std::size_t free_bytes = 0, total_bytes = 0;
    LADDER_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const std::size_t fit = std::size_t(double(free_bytes) * kFreeShare) / (2 * kStreams * frame_bytes_);
    const std::size_t share = ceil_div(stack_.frames, kMinSlices);
    std::size_t frames = std::max<std::size_t>(1, std::min(fit, share));
    while (!allocate(frames)) {
      if (frames == 1)
        throw DeviceError("cuda_streams: not enough device memory for one frame: a slice of one " +
                          std::to_string(stack_.height) + "×" + std::to_string(stack_.width) + " frame needs " +
                          std::to_string((2 * kStreams * frame_bytes_ + (1 << 20) - 1) >> 20) + " MiB on " +
                          std::to_string(kStreams) + " streams" +
                          (cap_bytes_ ? ", above device_memory_cap_mb=" + std::to_string(cap_bytes_ >> 20) : "") +
                          " (" + std::to_string(free_bytes >> 20) + " MiB free)");
      frames /= 2;  // out of memory: halve the slice and try again
    }
    frames_per_slice_ = frames;
  }

  void compute() override {
    const MedianSettings settings{settings_.size, settings_.remove_outlier, settings_.bright, settings_.diff};
    const std::byte* in = image_->raw();
    std::byte* out = output_->raw();
    const std::size_t slices = ceil_div(stack_.frames, frames_per_slice_);
    auto frames_of = [&](std::size_t slice) {
      return std::min(frames_per_slice_, stack_.frames - slice * frames_per_slice_);
    };
    // Slice c's result, from its stream's staging buffer to the output.
    auto collect = [&](std::size_t slice) {
      Slot& slot = slots_[slice % kStreams];
      LADDER_CUDA_CHECK(cudaStreamSynchronize(slot.stream.get()));
      std::memcpy(out + slice * frames_per_slice_ * frame_bytes_, slot.h_out.data(), frames_of(slice) * frame_bytes_);
    };
    for (std::size_t slice = 0; slice < slices; ++slice) {
      Slot& slot = slots_[slice % kStreams];
      if (slice >= kStreams) collect(slice - kStreams);  // the slot's previous slice is done with its buffers
      const std::size_t bytes = frames_of(slice) * frame_bytes_;
      // Staged through pinned memory: only page-locked copies run asynchronously.
      std::memcpy(slot.h_in.data(), in + slice * frames_per_slice_ * frame_bytes_, bytes);
      LADDER_CUDA_CHECK(
          cudaMemcpyAsync(slot.d_in.data(), slot.h_in.data(), bytes, cudaMemcpyHostToDevice, slot.stream.get()));
      median_filter::with_pixel_type(image_->dtype(), [&](auto tag) {
        using T = decltype(tag);
        launch_median_filter(reinterpret_cast<const T*>(slot.d_in.data()), reinterpret_cast<T*>(slot.d_out.data()),
                             frames_of(slice), int(stack_.height), int(stack_.width), settings, slot.stream.get());
      });
      LADDER_CUDA_CHECK_LAUNCH();
      LADDER_CUDA_CHECK(
          cudaMemcpyAsync(slot.h_out.data(), slot.d_out.data(), bytes, cudaMemcpyDeviceToHost, slot.stream.get()));
    }
    for (std::size_t slice = slices > kStreams ? slices - kStreams : 0; slice < slices; ++slice) collect(slice);
  }

 private:
  struct Slot {
    DeviceBuffer<std::byte> d_in, d_out;
    PinnedHostBuffer<std::byte> h_in, h_out;  // staging
    CudaStream stream;                        // last: destroyed first, it waits for the copies that use the buffers
  };

  // A device allocation that fails like cudaMalloc above the cap: empty.
  DeviceBuffer<std::byte> device_allocation(std::size_t bytes) {
    if (cap_bytes_ && device_bytes_ + bytes > cap_bytes_) return {};
    auto buffer = DeviceBuffer<std::byte>::try_allocate(bytes);
    if (buffer.data()) device_bytes_ += bytes;
    return buffer;
  }

  // Every slot's buffers for slices of `frames` frames; false (with nothing
  // held) when any allocation fails.
  bool allocate(std::size_t frames) {
    const std::size_t bytes = frames * frame_bytes_;
    for (Slot& slot : slots_) {
      slot.d_in = device_allocation(bytes);
      if (slot.d_in.data()) slot.d_out = device_allocation(bytes);
      if (slot.d_out.data()) slot.h_in = PinnedHostBuffer<std::byte>::try_allocate(bytes);
      if (slot.h_in.data()) slot.h_out = PinnedHostBuffer<std::byte>::try_allocate(bytes);
      if (!slot.h_out.data()) {
        free_buffers();
        return false;
      }
    }
    return true;
  }

  void free_buffers() {
    for (Slot& slot : slots_) {
      slot.d_in = {};
      slot.d_out = {};
      slot.h_in = {};
      slot.h_out = {};
    }
    device_bytes_ = 0;
  }

  median_filter::Settings settings_;
  median_filter::Stack stack_;
  const Array* image_ = nullptr;
  Array* output_ = nullptr;
  std::size_t frame_bytes_ = 0;
  std::size_t cap_bytes_ = 0;     // 0: no cap
  std::size_t device_bytes_ = 0;  // held by this rung's slots
  std::size_t frames_per_slice_ = 1;
  std::array<Slot, kStreams> slots_{};
};

}  // namespace
LADDER_REGISTER_RUNG(median_filter, cuda_streams, Backend::cuda, CudaStreamsMedianFilter);
}  // namespace ladder
