// serial: two passes instead of a flood fill. The first pass gives each
// pixel a provisional label from its scan mask, read through a SAUF-style
// decision tree, and records which labels meet in a union-find with path
// compression (two_pass.hpp). The second numbers the roots in label order
// (that is raster order) and rewrites every pixel: two sequential sweeps
// over the image, no stack, no jumping about.
#include <vector>

#include "given/labelling/connectivity.hpp"
#include "ladder/registry.hpp"
#include "two_pass.hpp"

namespace ladder {
namespace {

using labelling::Label;

class SerialLabelling final : public HostRung {
 public:
  explicit SerialLabelling(const RungContext& context) : connectivity_(labelling::connectivity(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<std::uint8_t>().data();
    labels_ = outputs.at("labels").view<std::int32_t>().data();
    height_ = static_cast<long>(inputs.at("image").shape()[0]);
    width_ = static_cast<long>(inputs.at("image").shape()[1]);
    parent_.assign(labelling::max_provisional_labels(height_, width_) + 1, 0);
  }

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

 private:
  int connectivity_;
  const std::uint8_t* image_ = nullptr;
  Label* labels_ = nullptr;
  long height_ = 0, width_ = 0;
  std::vector<Label> parent_;
};

}  // namespace
LADDER_REGISTER_RUNG(labelling, serial, SerialLabelling);
}  // namespace ladder
