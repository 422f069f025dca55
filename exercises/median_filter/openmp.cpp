// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// openmp: your serial rung with the stack shared among the cores. Every
// output pixel depends on the input only, so any piece of the output can
// be computed by any thread, as long as each piece has one writer.
#include <algorithm>
#include <vector>

#include "bench/problems/median_filter/median_filter.hpp"
#include "ladder/error.hpp"
#include "ladder/registry.hpp"
// ==== end

namespace ladder {
namespace {

// ==== exercise only
class OpenMpMedianFilter final : public OpenMpRung {
  // ==== end
 public:
  // ==== exercise only
  explicit OpenMpMedianFilter(const RungContext& context) : settings_(median_filter::settings_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = &inputs.at("image");
    output_ = &outputs.at("output");
    stack_ = median_filter::stack_of(*image_);  // frames × height × width, row-major
    // ==== end
  }

  // ==== yours
  void compute() override {
    // TODO: your serial rung, with the work shared among the threads (task
    // sheet, step 2). What is a piece of work: a frame, a row, or both? The
    // workshop stack has 8 frames, a single image one, and your machine
    // perhaps 16 cores. Your sliding window is scratch space: where does
    // each thread keep its own?
    LADDER_TODO(
        "openmp: share the stack among the threads in compute() of exercises/median_filter/openmp.cpp, then "
        "delete this line");
  }

 private:
  median_filter::Settings settings_;
  const Array* image_ = nullptr;
  Array* output_ = nullptr;
  median_filter::Stack stack_;
  // ==== end
};

}  // namespace
LADDER_REGISTER_RUNG(median_filter, openmp, OpenMpMedianFilter);
}  // namespace ladder
