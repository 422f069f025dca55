// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// serial: two passes over the image instead of a flood fill. The first
// gives each foreground pixel a provisional label from its neighbours
// already visited and records which labels meet (union-find); the second
// replaces each provisional label with its component's final number.
#include <cstdint>
#include <vector>

#include "ladder/error.hpp"
#include "ladder/registry.hpp"
#include "bench/problems/labelling/given/connectivity.hpp"
// ==== end

namespace ladder {
namespace {

// ==== exercise only
class SerialLabelling final : public HostRung {
  // ==== end
 public:
  // ==== yours
  explicit SerialLabelling(const RungContext& context) : connectivity_(labelling::connectivity(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<std::uint8_t>().data();
    labels_ = outputs.at("labels").view<std::int32_t>().data();
    height_ = static_cast<long>(inputs.at("image").shape()[0]);
    width_ = static_cast<long>(inputs.at("image").shape()[1]);
    // TODO (optional): the union-find's parent array, sized here once. How
    // many provisional labels can an image of height_ × width_ need at most?
    // ==== end
  }

  // ==== yours
  void compute() override {
    // TODO: labels_[i] = 0 for background, else the number of i's
    // component, 1, 2, ... in raster order of each component's first
    // pixel: naive.cpp's output exactly, for connectivity_ 4 or 8 (task
    // sheet, step 1). Pass 1 in raster order: which neighbours of a pixel
    // have been visited already? Pass 2: how do you number the roots so
    // that the numbers come out in raster order?
    LADDER_TODO("serial: write the two passes in compute() of exercises/labelling/serial.cpp, then delete this line");
  }

 private:
  int connectivity_;
  const std::uint8_t* image_ = nullptr;
  std::int32_t* labels_ = nullptr;
  long height_ = 0, width_ = 0;
  // ==== end
};

}  // namespace
LADDER_REGISTER_RUNG(labelling, serial, SerialLabelling);
}  // namespace ladder
