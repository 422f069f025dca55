// serial: the scanline (scanline.hpp). A row's pixels share ty, so each
// edge's crossing with the row is found once; sorted, the crossings bound
// the inside spans. About H·N·log N + H·W operations instead of H·W·N.
#include "ladder/registry.hpp"
#include "scanline.hpp"

namespace ladder {
namespace {

class SerialPolygonMask final : public HostRung {
 public:
  explicit SerialPolygonMask(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    vertices_ = inputs.at("vertices").view<double>();
    mask_ = outputs.at("mask").view<std::uint8_t>();
    height_ = static_cast<int>(outputs.at("mask").shape()[0]);
    width_ = static_cast<int>(outputs.at("mask").shape()[1]);
    crossings_.reserve(vertices_.size() / 2);
  }

  void compute() override {
    for (int y = 0; y < height_; ++y)
      polygon_mask::fill_row(vertices_, y, width_, mask_.data() + std::size_t(y) * width_, crossings_);
  }

 private:
  std::span<const double> vertices_;
  std::span<std::uint8_t> mask_;
  int height_ = 0, width_ = 0;
  std::vector<int> crossings_;  // columns where the row crosses an edge
};

}  // namespace
LADDER_REGISTER_RUNG(polygon_mask, serial, SerialPolygonMask);
}  // namespace ladder
