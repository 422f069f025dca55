// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// cuda: the opencl rung's tiles in shared memory (kernels/dispersion.cuh):
// one block per 32 × 32 tile of a frame, the whole stack in one launch
// (blockIdx.z is the frame). The host side is given: buffers, copies, the
// launch.
#include <cmath>

#include "bench/problems/spot_finding/spot_finding.hpp"
#include "kernels/dispersion.cuh"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"
// ==== end

namespace ladder {
namespace {

// ==== exercise only
using spot_finding::Settings;

class CudaSpotFinding final : public CudaRung {
  // ==== end
 public:
  // ==== exercise only
  explicit CudaSpotFinding(const RungContext& context)
      : CudaRung(context), settings_(spot_finding::settings_of(context.params)) {}
  // ==== end

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    // ==== exercise only
    image_ = inputs.at("image").view<std::uint16_t>();
    mask_ = inputs.at("mask").view<std::uint8_t>();
    signal_ = outputs.at("signal").view<std::uint8_t>();
    stack_ = spot_finding::stack_of(inputs.at("image"));
    d_image_ = device_buffer<std::uint16_t>(image_.size());
    d_mask_ = device_buffer<std::uint8_t>(mask_.size());
    d_signal_ = device_buffer<std::uint8_t>(signal_.size());
    // The launch: a tile per block, a grid layer per frame (validate()
    // refuses more than 65535 frames).
    grid_ = dim3(ceil_div(unsigned(stack_.width), kTileWidth),
                 ceil_div(unsigned(stack_.height), kTileHeight), unsigned(stack_.frames));
    shared_bytes_ = dispersion_shared_bytes(settings_.kernel_size);
    if (shared_bytes_ > properties().sharedMemPerBlock)
      throw DeviceError("cuda: the dispersion kernel asks for " + std::to_string(shared_bytes_) +
                        " bytes of shared memory a block at k = " + std::to_string(settings_.kernel_size) +
                        "; a block may use " + std::to_string(properties().sharedMemPerBlock) +
                        " (see dispersion_shared_bytes)");
    // sqrt(2 (m - 1)) of a full window, rounded as the device's sqrt rounds it.
    root_full_ = std::sqrt(2 * (static_cast<double>(settings_.window()) - 1));
#ifdef LADDER_TODO_CUDA_KERNEL  // kernels/dispersion.cuh still holds its TODO line
    LADDER_TODO(LADDER_TODO_CUDA_KERNEL);
#endif
  }

  void upload() override {
    copy_to_device(d_image_, image_);
    copy_to_device(d_mask_, mask_);
    // ==== end
  }

  void compute() override {
    // ==== exercise only
    launch_dispersion_mask(grid_, shared_bytes_, stream(), d_image_.data(), d_mask_.data(), d_signal_.data(),
                           int(stack_.height), int(stack_.width), settings_, root_full_);
    // ==== end
    LADDER_CUDA_CHECK_LAUNCH();
  }

  // ==== exercise only
  void download() override { copy_to_host(signal_, d_signal_); }
  // ==== end

 private:
  // ==== exercise only
  Settings settings_;
  std::span<const std::uint16_t> image_;
  std::span<const std::uint8_t> mask_;
  std::span<std::uint8_t> signal_;
  spot_finding::Stack stack_;
  DeviceBuffer<std::uint16_t> d_image_;
  DeviceBuffer<std::uint8_t> d_mask_;
  DeviceBuffer<std::uint8_t> d_signal_;
  dim3 grid_;
  std::size_t shared_bytes_ = 0;
  double root_full_ = 0;
  // ==== end
};

}  // namespace
LADDER_REGISTER_RUNG(spot_finding, cuda, CudaSpotFinding);
}  // namespace ladder
