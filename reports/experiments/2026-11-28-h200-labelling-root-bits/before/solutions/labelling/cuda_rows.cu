// cuda_rows: the cuda rung with each tile labelled by one warp, a row at a
// time (kernels/labelling/labelling_rows.cuh): a run takes the root of the
// first pixel above it that it touches, so the rows above are already
// shallow trees when the next row reads them. The borders and the
// numbering are the cuda rung's.
#include "kernels/labelling/labelling_rows.cuh"
#include "solutions/labelling/device_labelling.cuh"

namespace ladder {
namespace {

class CudaRowsLabelling final : public labelling::DeviceLabellingRung {
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
    label_tile_rows<Connectivity><<<ceil_div(tiles_, unsigned(kRowTilesPerBlock)), dim3(kTileWidth, kRowTilesPerBlock),
                                    0, stream()>>>(d_image_.data(), height_, width_, tiles_across_, tiles_,
                                                   d_forest_.data());
    LADDER_CUDA_CHECK_LAUNCH();
    merge_borders<Connectivity>();
  }
};

}  // namespace
LADDER_REGISTER_RUNG(labelling, cuda_rows, CudaRowsLabelling);
}  // namespace ladder
