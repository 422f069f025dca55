// serial: two passes instead of a flood fill. The first pass gives each
// pixel a provisional label from its scan mask, read through a SAUF-style
// decision tree, and records which labels meet in a union-find with path
// compression (two_pass.hpp). The second numbers the roots in label order
// (that is raster order) and rewrites every pixel: two sequential sweeps
// over the image, no stack, no jumping about.
#include "solutions/labelling/two_pass_rung.hpp"

namespace ladder {
namespace {

using labelling::Label;

class SerialLabelling final : public labelling::TwoPassRung<HostRung> {
 public:
  using TwoPassRung::TwoPassRung;

  void compute() override {
    Label* parent = parent_.data();
    // Label 0 is the background; provisional labels start at 1.
    const Label end = connectivity_ == 4 ? labelling::scan_rows<4>(image_, width_, 0, height_, labels_, parent, 1)
                                         : labelling::scan_rows<8>(image_, width_, 0, height_, labels_, parent, 1);
    // Roots in label order get 1, 2, ...; any other label takes its
    // parent's number, which is final already because parent[l] < l.
    Label n = 0;
    parent[0] = 0;
    for (Label l = 1; l < end; ++l) parent[l] = parent[l] < l ? parent[parent[l]] : ++n;
    for (long i = 0; i < height_ * width_; ++i) labels_[i] = parent[labels_[i]];
  }
};

}  // namespace
LADDER_REGISTER_RUNG(labelling, serial, SerialLabelling);
}  // namespace ladder
