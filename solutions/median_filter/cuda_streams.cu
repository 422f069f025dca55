// cuda_streams: a stack of any size, through the cuda rung's kernels in
// slices of whole frames. The slice is sized from the free device memory
// (cudaMemGetInfo) and the frame size; each of kStreams streams owns a
// slice's device buffers, so that while one slice is filtered, the next is
// uploading and the previous downloading. The copies run straight between
// the harness's arrays and the device: prepare() pins the arrays in place
// (when --pinned has not already), because only page-locked memory copies
// asynchronously, and a staging copy through a pinned buffer on one host
// thread ran at a few GB/s, a tenth of the link. When an allocation fails
// (out of memory, or above device_memory_cap_mb) the slice is halved and
// the allocation retried; if not even one frame fits, the rung stops with
// an error. It never hands back its input as if it had filtered it.
//
// Copies overlapped with the filter are the idea, so compute() runs from
// host input to host output (upload and download are empty): its compute
// time is a transfer-inclusive time, to set beside the cuda rung's.
#include <algorithm>
#include <array>
#include <string>

#include "bench/problems/median_filter/median_filter.hpp"
#include "kernels/median_filter/median_filter.cuh"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"

namespace ladder {
namespace {

constexpr std::size_t kStreams = 3;     // upload, filter, download at once
constexpr std::size_t kMinSlices = 16;  // many slices, so that the pipeline fills
constexpr double kFreeShare = 0.9;      // of the free memory: leave the driver some room

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
    // Under --pinned the harness has pinned them already (attach_host_memory).
    if (!CudaRung::uses_pinned_memory()) {
      pin({image_->raw(), image_->bytes()});
      pin({output_->raw(), output_->bytes()});
    }

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
    // Slice s runs on lane s mod kStreams, in that lane's buffers: a lane's
    // stream keeps its slices in order, so no slice overwrites buffers that
    // the one before it still uses, and the host never waits.
    lanes_.fork(stream());
    for (std::size_t slice = 0, first = 0; first < stack_.frames; ++slice, first += frames_per_slice_) {
      const Slot& slot = slots_[slice % kStreams];
      const cudaStream_t lane = lanes_[slice];
      const std::size_t frames = std::min(frames_per_slice_, stack_.frames - first);
      const std::size_t at = first * frame_bytes_, bytes = frames * frame_bytes_;
      LADDER_CUDA_CHECK(cudaMemcpyAsync(slot.d_in.data(), in + at, bytes, cudaMemcpyHostToDevice, lane));
      median_filter::with_pixel_type(image_->dtype(), [&](auto tag) {
        using T = decltype(tag);
        launch_median_filter(reinterpret_cast<const T*>(slot.d_in.data()), reinterpret_cast<T*>(slot.d_out.data()),
                             frames, int(stack_.height), int(stack_.width), settings, lane);
      });
      LADDER_CUDA_CHECK_LAUNCH();
      LADDER_CUDA_CHECK(cudaMemcpyAsync(out + at, slot.d_out.data(), bytes, cudaMemcpyDeviceToHost, lane));
    }
    lanes_.join(stream());
  }

  bool uses_pinned_memory() const override { return true; }

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

  median_filter::Settings settings_;
  median_filter::Stack stack_;
  const Array* image_ = nullptr;
  Array* output_ = nullptr;
  std::size_t frame_bytes_ = 0;
  std::size_t cap_bytes_ = 0;     // 0: no cap
  std::size_t device_bytes_ = 0;  // held by this rung's slots
  std::size_t frames_per_slice_ = 1;
  std::array<Slot, kStreams> slots_{};
  StreamLanes<kStreams> lanes_;  // after the buffers: destroying a stream waits for its copies
};

}  // namespace
LADDER_REGISTER_RUNG(median_filter, cuda_streams, CudaStreamsMedianFilter);
}  // namespace ladder
