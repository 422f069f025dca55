// openmp: the serial scanline (scanline.hpp) with the rows shared among the
// threads. Rows are independent (each writes only its own span of the
// mask), so the one change is the loop over rows, plus a crossings list
// per thread.
#include "ladder/registry.hpp"
#include "scanline.hpp"

namespace ladder {
namespace {

class OpenMpPolygonMask final : public OpenMpRung {
 public:
  explicit OpenMpPolygonMask(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    vertices_ = inputs.at("vertices").view<double>();
    mask_ = outputs.at("mask").view<std::uint8_t>();
    height_ = static_cast<int>(outputs.at("mask").shape()[0]);
    width_ = static_cast<int>(outputs.at("mask").shape()[1]);
  }

  void compute() override {
#pragma omp parallel
    {
      std::vector<int> crossings;
      crossings.reserve(vertices_.size() / 2);
      // schedule(static, 4): rows that meet the polygon cost more (crossings
      // to find and sort) than rows above or below it. Dealt out four at a
      // time, both kinds reach every thread; contiguous blocks left some
      // threads idle (H100 host, 16 threads: 21.9 µs against 26.9 µs).
#pragma omp for schedule(static, 4)
      for (int y = 0; y < height_; ++y)
        polygon_mask::fill_row(vertices_, y, width_, mask_.data() + std::size_t(y) * width_, crossings);
    }
  }

 private:
  std::span<const double> vertices_;
  std::span<std::uint8_t> mask_;
  int height_ = 0, width_ = 0;
};

}  // namespace
LADDER_REGISTER_RUNG(polygon_mask, openmp, OpenMpPolygonMask);
}  // namespace ladder
