// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// openmp: your serial scanline with the rows shared among the cores. Each
// row writes only its own part of the mask.
#include <cstdint>
#include <span>

#include "ladder/error.hpp"
// ==== end
#include "ladder/registry.hpp"

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
    // ==== yours
    // TODO: your serial rung's loop over the rows, in parallel (task sheet,
    // step 2). What scratch space did one row need, and whose is it now?
    // Do all rows cost the same?
    LADDER_TODO("openmp: share the rows in compute() of exercises/polygon_mask/openmp.cpp, then delete this line");
    // ==== end
  }

 private:
  std::span<const double> vertices_;
  std::span<std::uint8_t> mask_;
  int height_ = 0, width_ = 0;
};

}  // namespace
LADDER_REGISTER_RUNG(polygon_mask, openmp, OpenMpPolygonMask);
}  // namespace ladder
