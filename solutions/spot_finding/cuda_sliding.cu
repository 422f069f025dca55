// cuda_sliding: the cuda rung's window sums without a shared-memory tile
// (kernels/spot_finding/dispersion_sliding.cuh). A warp walks down a strip
// of 128 columns, four a lane: each pixel is loaded once into a register,
// its row neighbours come from the lanes beside it by warp shuffles, and
// the last 2k + 1 row sums stay on chip (Σv² in shared memory, the rest in
// registers), so the window slides down one row in, one row out.
// Count and Σv share one 32-bit word, which holds a window of up to 7 × 7:
// for k > 3 the rung runs the cuda rung's tile kernel instead.

#include "kernels/spot_finding/dispersion.cuh"
#include "kernels/spot_finding/dispersion_sliding.cuh"
#include "solutions/spot_finding/device_stack.cuh"

namespace ladder {
namespace {

class CudaSlidingSpotFinding final : public spot_finding::DeviceStackRung {
 public:
  using DeviceStackRung::DeviceStackRung;

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    DeviceStackRung::prepare(inputs, outputs);
    sliding_ = settings_.kernel_size <= kSlidingMaxK;
    if (sliding_) {
      sliding_launch_ = plan_dispersion_sliding(settings_.kernel_size, stack_.frames, stack_.height, stack_.width);
      test_ = sliding_test_of(settings_);
    } else {  // the tile kernel, as the cuda rung launches it
      tiles_ = plan_dispersion_tiles(settings_, stack_);
    }
  }

  void compute() override {
    if (sliding_)
      launch_dispersion_sliding(settings_.kernel_size, sliding_launch_, stream(), d_image_.data(), d_mask_.data(),
                                d_signal_.data(), int(stack_.height), int(stack_.width), test_);
    else
      launch_dispersion_mask(tiles_, stack_.frames, stream(), d_image_.data(), d_mask_.data(), d_signal_.data(),
                             int(stack_.height), int(stack_.width), settings_);
    LADDER_CUDA_CHECK_LAUNCH();
  }

 private:
  bool sliding_ = true;
  SlidingLaunch sliding_launch_;
  DispersionTiles tiles_;  // the tile kernel's
  SlidingTest test_;
};

}  // namespace
LADDER_REGISTER_RUNG(spot_finding, cuda_sliding, CudaSlidingSpotFinding);
}  // namespace ladder
