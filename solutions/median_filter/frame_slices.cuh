#pragma once
// cuda_streams' pipeline, which cuda_nccl_streams runs on each rank's own
// frames: a stack from page-locked host memory to page-locked host memory,
// in slices of whole frames. Each of kStreams streams owns a slice's device
// buffers, so that while one slice is filtered the next is uploading and
// the previous downloading, both directions of the link at once.
//
// The slice is sized from the free device memory (cudaMemGetInfo) and the
// frame size, and at most 1/kMinSlices of the stack, so that the pipeline
// fills. When an allocation fails (out of memory, or above the cap) every
// buffer is freed, the slice halved and the allocation retried; where not
// even one frame fits it throws, naming the need and the cap.
#include <algorithm>
#include <array>
#include <cstddef>
#include <string>

#include "bench/problems/median_filter/median_filter.hpp"
#include "kernels/median_filter/median_filter.cuh"
#include "ladder/ceil_div.hpp"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"

namespace ladder::median_filter {

class FrameSlices {
 public:
  static constexpr std::size_t kStreams = 3;     // upload, filter, download at once
  static constexpr std::size_t kMinSlices = 16;  // many slices, so that the pipeline fills
  static constexpr double kFreeShare = 0.9;      // of the free memory: leave the driver some room

  // Device buffers for slices of `stack` (frames of `frame_bytes`), on the
  // current GPU; `cap_bytes` (0: none) fails allocations above it as
  // cudaMalloc does on a smaller GPU. `rung` names the rung in errors.
  FrameSlices(Stack stack, std::size_t frame_bytes, std::size_t cap_bytes, const std::string& rung)
      : stack_(stack), frame_bytes_(frame_bytes), cap_bytes_(cap_bytes) {
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
        throw DeviceError(rung + ": not enough device memory for one frame: a slice of one " +
                          std::to_string(stack_.height) + "×" + std::to_string(stack_.width) + " frame needs " +
                          std::to_string((2 * kStreams * frame_bytes_ + (1 << 20) - 1) >> 20) + " MiB on " +
                          std::to_string(kStreams) + " streams" +
                          (cap_bytes_ ? ", above device_memory_cap_mb=" + std::to_string(cap_bytes_ >> 20) : "") +
                          " (" + std::to_string(free_bytes >> 20) + " MiB free)");
      frames /= 2;  // out of memory: halve the slice and try again
    }
    frames_per_slice_ = frames;
  }

  // Queues the whole stack from `in` to `out` (host memory, page-locked:
  // only that copies asynchronously) after the work queued on `stream`, and
  // makes `stream` wait for all of it. The host never waits.
  void filter(const std::byte* in, std::byte* out, DType dtype, const Settings& settings, cudaStream_t stream,
              MedianKernel kernel) {
    const MedianSettings kernel_settings{settings.size, settings.remove_outlier, settings.bright, settings.diff};
    // Slice s runs on lane s mod kStreams, in that lane's buffers: a lane's
    // stream keeps its slices in order, so no slice overwrites buffers that
    // the one before it still uses.
    lanes_.fork(stream);
    for (std::size_t slice = 0, first = 0; first < stack_.frames; ++slice, first += frames_per_slice_) {
      const Slot& slot = slots_[slice % kStreams];
      const cudaStream_t lane = lanes_[slice];
      const std::size_t frames = std::min(frames_per_slice_, stack_.frames - first);
      const std::size_t at = first * frame_bytes_, bytes = frames * frame_bytes_;
      LADDER_CUDA_CHECK(cudaMemcpyAsync(slot.d_in.data(), in + at, bytes, cudaMemcpyHostToDevice, lane));
      with_pixel_type(dtype, [&](auto tag) {
        using T = decltype(tag);
        launch_median_filter(reinterpret_cast<const T*>(slot.d_in.data()), reinterpret_cast<T*>(slot.d_out.data()),
                             frames, int(stack_.height), int(stack_.width), kernel_settings, lane, kernel);
      });
      LADDER_CUDA_CHECK_LAUNCH();
      LADDER_CUDA_CHECK(cudaMemcpyAsync(out + at, slot.d_out.data(), bytes, cudaMemcpyDeviceToHost, lane));
    }
    lanes_.join(stream);
  }

 private:
  struct Slot {
    DeviceBuffer<std::byte> d_in, d_out;
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
      if (!slot.d_out.data()) {
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
    }
    device_bytes_ = 0;
  }

  Stack stack_;
  std::size_t frame_bytes_ = 0;
  std::size_t cap_bytes_ = 0;     // 0: no cap
  std::size_t device_bytes_ = 0;  // held by the slots
  std::size_t frames_per_slice_ = 1;
  std::array<Slot, kStreams> slots_{};
  StreamLanes<kStreams> lanes_;  // after the buffers: destroying a stream waits for its copies
};

}  // namespace ladder::median_filter
