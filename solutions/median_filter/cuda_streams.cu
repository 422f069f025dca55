// cuda_streams: a stack of any size, through the cuda rung's kernels in
// slices of whole frames (FrameSlices, frame_slices.cuh): each of three
// streams owns a slice's device buffers, so that while one slice is
// filtered, the next is uploading and the previous downloading. The copies
// run straight between the harness's arrays and the device: prepare() pins
// the arrays in place (when --pinned has not already), because only
// page-locked memory copies asynchronously, and a staging copy through a
// pinned buffer on one host thread ran at a few GB/s, a tenth of the link.
// When an allocation fails (out of memory, or above device_memory_cap_mb)
// the slice is halved and the allocation retried; if not even one frame
// fits, the rung stops with an error. It never hands back its input as if
// it had filtered it.
//
// Copies overlapped with the filter are the idea, so compute() runs from
// host input to host output (upload and download are empty): its compute
// time is a transfer-inclusive time, to set beside the cuda rung's.
#include <optional>

#include "bench/problems/median_filter/median_filter.hpp"
#include "ladder/cuda.cuh"
#include "solutions/median_filter/frame_slices.cuh"

namespace ladder {
namespace {

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
    const median_filter::Stack stack = median_filter::stack_of(*image_);
    // Under --pinned the harness has pinned them already (attach_host_memory).
    if (!CudaRung::uses_pinned_memory()) {
      pin({image_->raw(), image_->bytes()});
      pin({output_->raw(), output_->bytes()});
    }
    slices_.emplace(stack, stack.frame_pixels() * dtype_size(image_->dtype()), cap_bytes_, "cuda_streams");
  }

  void compute() override {
    slices_->filter(image_->raw(), output_->raw(), image_->dtype(), settings_, stream(),
                    MedianKernel::forgetful_selection);
  }

  bool uses_pinned_memory() const override { return true; }
  // The events time the copies over the host's link too: a figure that moves with the host.
  std::string host_work_in_compute() const override { return "the copies to and from the host, overlapped"; }

 private:
  median_filter::Settings settings_;
  const Array* image_ = nullptr;
  Array* output_ = nullptr;
  std::size_t cap_bytes_ = 0;  // 0: no cap
  std::optional<median_filter::FrameSlices> slices_;
};

}  // namespace
LADDER_REGISTER_RUNG(median_filter, cuda_streams, CudaStreamsMedianFilter);
}  // namespace ladder
