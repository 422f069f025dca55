// cuda_rows: the cuda rung with each tile labelled by one warp, a row at a
// time (kernels/labelling/labelling_rows.cuh): a run takes the root of the
// first pixel above it that it touches, so the rows above are already
// shallow trees when the next row reads them. The borders are the cuda
// rung's; the numbering is one pass over the forest, each chunk of pixels
// looking back over the chunks before it for the roots they hold.
#include "kernels/labelling/labelling_rows.cuh"
#include "solutions/labelling/device_labelling.cuh"

namespace ladder {
namespace {

class CudaRowsLabelling final : public labelling::DeviceLabellingRung {
 public:
  using DeviceLabellingRung::DeviceLabellingRung;

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    DeviceLabellingRung::prepare(inputs, outputs);
    d_statuses_ = DeviceBuffer<unsigned long long>(std::size_t{chunks_} + 1);  // and the ticket after them
  }

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

  void number() override {
    // Every chunk's status and the ticket start at zero, each call.
    LADDER_CUDA_CHECK(cudaMemsetAsync(d_statuses_.data(), 0, d_statuses_.bytes(), stream()));
    number_in_one_pass<<<chunks_, kCountThreads, 0, stream()>>>(
        d_forest_.data(), d_labels_.data(), n_, d_root_bits_.data(), d_word_offsets_.data(), d_statuses_.data(),
        reinterpret_cast<unsigned*>(d_statuses_.data() + chunks_));
    LADDER_CUDA_CHECK_LAUNCH();
  }

  DeviceBuffer<unsigned long long> d_statuses_;  // the chunks' look-back statuses
};

}  // namespace
LADDER_REGISTER_RUNG(labelling, cuda_rows, CudaRowsLabelling);
}  // namespace ladder
