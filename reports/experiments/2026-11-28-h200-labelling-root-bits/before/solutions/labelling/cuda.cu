// cuda: label equivalence on the device (kernels/labelling/labelling.cuh).
// Every pixel starts as its own label; blocks unite the pixels of their
// tile in shared memory, then the tiles are joined across their borders in
// global memory, always hanging the larger root under the smaller
// (atomicMin). Each component's root is then its first pixel in raster
// order, and scipy's numbering is a prefix sum over the root flags: the
// numbering is done on the device too, not handed back to the host
// (solutions/labelling/device_labelling.cuh).
#include "solutions/labelling/device_labelling.cuh"

namespace ladder {
namespace {

class CudaLabelling final : public labelling::DeviceLabellingRung {
 public:
  using DeviceLabellingRung::DeviceLabellingRung;

 private:
  void build_forest() override {
    if (connectivity_ == 4)
      label<4>();
    else
      label<8>();
  }

  template <int Connectivity>
  void label() {
    label_tiles<Connectivity><<<tiles_, dim3(kTileWidth, kTileWarps), 0, stream()>>>(d_image_.data(), height_, width_,
                                                                                     tiles_across_, d_forest_.data());
    LADDER_CUDA_CHECK_LAUNCH();
    merge_borders<Connectivity>();
  }
};

}  // namespace
LADDER_REGISTER_RUNG(labelling, cuda, CudaLabelling);
}  // namespace ladder
