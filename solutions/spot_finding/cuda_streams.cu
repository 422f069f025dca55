// cuda_streams: the cuda rung's kernel, with the copies overlapped. The
// stack goes up, is computed and comes back in chunks of a few frames,
// dealt round-robin to four streams: while chunk c computes, chunk c + 1 is
// uploading and chunk c - 1 downloading, so the PCIe link never waits for
// the GPU. Copies overlap only from page-locked memory: prepare() pins the
// harness's buffers in place when --pinned has not already.
//
// Overlapping the copies is this rung's whole idea, so its compute step is
// host input to host output (upload and download are empty): its compute
// time is its transfer-inclusive time, to set beside the cuda rung's.
#include <algorithm>
#include <array>

#include "kernels/spot_finding/dispersion.cuh"
#include "solutions/spot_finding/device_stack.cuh"

namespace ladder {
namespace {

constexpr std::size_t kStreams = 4;
constexpr std::size_t kChunkInputBytes = 4 << 20;  // ~2 frames of 512 × 1028: many chunks, each copy long enough

class CudaStreamsSpotFinding final : public spot_finding::DeviceStackRung {
 public:
  using DeviceStackRung::DeviceStackRung;

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    DeviceStackRung::prepare(inputs, outputs);
    // Under --pinned the harness has pinned them already (attach_host_memory).
    if (!CudaRung::uses_pinned_memory()) {
      pin(std::as_bytes(image_));
      pin(std::as_bytes(mask_));
      pin(std::as_bytes(signal_));
    }
    frames_per_chunk_ = std::max<std::size_t>(1, kChunkInputBytes / (3 * stack_.frame_pixels()));
    tiles_ = plan_dispersion_tiles(settings_, stack_);
  }

  void compute() override {
    lanes_.fork(stream());
    const std::size_t n = stack_.frame_pixels();
    for (std::size_t first = 0, chunk = 0; first < stack_.frames; first += frames_per_chunk_, ++chunk) {
      cudaStream_t s = lanes_[chunk];
      const std::size_t frames = std::min(frames_per_chunk_, stack_.frames - first);
      const std::size_t at = first * n, count = frames * n;
      LADDER_CUDA_CHECK(cudaMemcpyAsync(d_image_.data() + at, image_.data() + at, count * sizeof(std::uint16_t),
                                        cudaMemcpyHostToDevice, s));
      LADDER_CUDA_CHECK(cudaMemcpyAsync(d_mask_.data() + at, mask_.data() + at, count, cudaMemcpyHostToDevice, s));
      launch_dispersion_mask(tiles_, frames, s, d_image_.data() + at, d_mask_.data() + at, d_signal_.data() + at,
                             int(stack_.height), int(stack_.width), settings_);
      LADDER_CUDA_CHECK_LAUNCH();
      LADDER_CUDA_CHECK(cudaMemcpyAsync(signal_.data() + at, d_signal_.data() + at, count, cudaMemcpyDeviceToHost, s));
    }
    lanes_.join(stream());
  }

  // The copies are part of compute(), overlapped with the kernels.
  void upload() override {}
  void download() override {}

  bool uses_pinned_memory() const override { return true; }
  // The events time the copies over the host's link too: a figure that moves with the host.
  std::string host_work_in_compute() const override { return "the copies to and from the host, overlapped"; }

 private:
  StreamLanes<kStreams> lanes_;  // destroyed before the base class's buffers: destroying a stream waits for its copies
  std::size_t frames_per_chunk_ = 1;
  DispersionTiles tiles_;
};

}  // namespace
LADDER_REGISTER_RUNG(spot_finding, cuda_streams, CudaStreamsSpotFinding);
}  // namespace ladder
