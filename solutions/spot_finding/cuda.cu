// cuda: the opencl rung's tiles in shared memory (kernels/spot_finding/
// dispersion.cuh): one block per 32 × 32 tile of a frame loads the tile and
// its k-pixel halo together, sums across then down in shared memory (2(2k+1)
// additions a pixel), and applies DIALS' test in double. The whole stack is
// one launch: blockIdx.z is the frame.
#include "kernels/spot_finding/dispersion.cuh"
#include "solutions/spot_finding/device_stack.cuh"

namespace ladder {
namespace {

class CudaSpotFinding final : public spot_finding::DeviceStackRung {
 public:
  using DeviceStackRung::DeviceStackRung;

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    DeviceStackRung::prepare(inputs, outputs);
    tiles_ = plan_dispersion_tiles(settings_, stack_);
  }

  void compute() override {
    launch_dispersion_mask(tiles_, stack_.frames, stream(), d_image_.data(), d_mask_.data(), d_signal_.data(),
                           int(stack_.height), int(stack_.width), settings_);
    LADDER_CUDA_CHECK_LAUNCH();
  }

 private:
  DispersionTiles tiles_;
};

}  // namespace
LADDER_REGISTER_RUNG(spot_finding, cuda, CudaSpotFinding);
}  // namespace ladder
