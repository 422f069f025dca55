// cuda: the opencl rung's tiles in shared memory (kernels/spot_finding/
// dispersion.cuh): one block per 32 × 32 tile of a frame loads the tile and
// its k-pixel halo together, sums across then down in shared memory (2(2k+1)
// additions a pixel), and applies DIALS' test in double. The whole stack is
// one launch: blockIdx.z is the frame.
#include "bench/problems/spot_finding.hpp"
#include "kernels/spot_finding/dispersion.cuh"
#include "ladder/cuda.cuh"

namespace ladder {
namespace {

using spot_finding::Settings;

class CudaSpotFinding final : public CudaRung {
 public:
  explicit CudaSpotFinding(const RungContext& context)
      : CudaRung(context), settings_(spot_finding::settings_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<std::uint16_t>();
    mask_ = inputs.at("mask").view<std::uint8_t>();
    signal_ = outputs.at("signal").view<std::uint8_t>();
    stack_ = spot_finding::stack_of(inputs.at("image"));
    d_image_ = DeviceBuffer<std::uint16_t>(image_.size());
    d_mask_ = DeviceBuffer<std::uint8_t>(mask_.size());
    d_signal_ = DeviceBuffer<std::uint8_t>(signal_.size());
    tiles_ = plan_dispersion_tiles(settings_, stack_);
  }

  void upload() override {
    copy_to_device(d_image_, image_);
    copy_to_device(d_mask_, mask_);
  }

  void compute() override {
    launch_dispersion_mask(tiles_, stack_.frames, stream(), d_image_.data(), d_mask_.data(), d_signal_.data(),
                           int(stack_.height), int(stack_.width), settings_);
    LADDER_CUDA_CHECK_LAUNCH();
  }

  void download() override { copy_to_host(signal_, d_signal_); }

 private:
  Settings settings_;
  std::span<const std::uint16_t> image_;
  std::span<const std::uint8_t> mask_;
  std::span<std::uint8_t> signal_;
  spot_finding::Stack stack_;
  DeviceBuffer<std::uint16_t> d_image_;
  DeviceBuffer<std::uint8_t> d_mask_;
  DeviceBuffer<std::uint8_t> d_signal_;
  DispersionTiles tiles_;
};

}  // namespace
LADDER_REGISTER_RUNG(spot_finding, cuda, CudaSpotFinding);
}  // namespace ladder
