// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// serial: the scanline. naive.cpp tests every pixel against every edge; the
// pixels of a row share their y, so each edge's crossing with the row can be
// found once, and the crossings, sorted, bound the spans inside the polygon.
#include <cstdint>
#include <span>

#include "ladder/error.hpp"
// ==== end
#include "ladder/registry.hpp"

namespace ladder {
namespace {

class SerialPolygonMask final : public HostRung {
 public:
  explicit SerialPolygonMask(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    // ==== exercise only
    vertices_ = inputs.at("vertices").view<double>();  // x0, y0, x1, y1, ...: vertices_.size() / 2 vertices
    // ==== end
    mask_ = outputs.at("mask").view<std::uint8_t>();
    height_ = static_cast<int>(outputs.at("mask").shape()[0]);
    width_ = static_cast<int>(outputs.at("mask").shape()[1]);
  }

  void compute() override {
    // ==== yours
    // TODO: mask_[y * width_ + x] = 1 when the point (x, y) is inside the
    // polygon by the even-odd rule, else 0, row by row (task sheet, step 1):
    // for each row, the column where each edge that straddles the row
    // crosses it; sorted, those columns bound the inside spans. Your mask
    // must equal naive's bit for bit, even for a pixel next to an edge.
    LADDER_TODO("serial: write the scanline in compute() of exercises/polygon_mask/serial.cpp, then delete this line");
    // ==== end
  }

 private:
  std::span<const double> vertices_;
  std::span<std::uint8_t> mask_;
  int height_ = 0, width_ = 0;
};

}  // namespace
LADDER_REGISTER_RUNG(polygon_mask, serial, SerialPolygonMask);
}  // namespace ladder
