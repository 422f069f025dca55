// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// serial: the same medians as naive.cpp without sorting k² values for every
// pixel. Neighbouring windows along a row share all but one column: sort
// each column once, share it, and select the middle with min and max only.
#include <algorithm>
#include <vector>

#include "bench/problems/median_filter/median_filter.hpp"
#include "ladder/error.hpp"
#include "ladder/registry.hpp"
// ==== end

namespace ladder {
namespace {

// ==== exercise only
class SerialMedianFilter final : public HostRung {
  // ==== end
 public:
  // ==== yours
  explicit SerialMedianFilter(const RungContext& context) : settings_(median_filter::settings_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = &inputs.at("image");
    output_ = &outputs.at("output");
    stack_ = median_filter::stack_of(*image_);  // frames × height × width, row-major
    // TODO (optional): anything compute() reuses on every call, such as a
    // table of reflected column indices, is best made here, once.
    // ==== end
  }

  // ==== yours
  void compute() override {
    // TODO: output_ = naive.cpp's output, bit for bit (task sheet, step 1):
    // for every pixel the middle of its sorted k×k window (k =
    // settings_.size), borders by median_filter::reflect, and
    // median_filter::choose(pixel, median, settings_) for what is written.
    // The image is float32, float64 or uint16: median_filter::with_pixel_type
    // calls a generic lambda with the C++ type, as naive.hpp's filter()
    // does. For k = 3: with each column of three sorted, the median of the
    // window is the median of (largest low, middle middle, smallest high).
    LADDER_TODO(
        "serial: write the selection median in compute() of exercises/median_filter/serial.cpp, then delete this "
        "line");
  }

 private:
  median_filter::Settings settings_;
  const Array* image_ = nullptr;
  Array* output_ = nullptr;
  median_filter::Stack stack_;
  // ==== end
};

}  // namespace
LADDER_REGISTER_RUNG(median_filter, serial, SerialMedianFilter);
}  // namespace ladder
