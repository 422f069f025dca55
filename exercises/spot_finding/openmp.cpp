// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// openmp: your serial rung's tables with the stack shared among the cores.
// Frames are independent, and so are bands of rows within a frame, as long
// as each band's table also covers the rows its windows reach.
// ==== end
#include <omp.h>

// ==== exercise only
#include <cstdint>
// ==== end
#include <vector>

// ==== exercise only
#include "bench/problems/spot_finding/spot_finding.hpp"
#include "ladder/error.hpp"
#include "ladder/registry.hpp"
// ==== end

namespace ladder {
namespace {

// ==== exercise only
using spot_finding::Settings;

class OpenMpSpotFinding final : public OpenMpRung {
  // ==== end
 public:
  // ==== exercise only
  explicit OpenMpSpotFinding(const RungContext& context) : settings_(spot_finding::settings_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<std::uint16_t>().data();
    mask_ = inputs.at("mask").view<std::uint8_t>().data();
    signal_ = outputs.at("signal").view<std::uint8_t>().data();
    stack_ = spot_finding::stack_of(inputs.at("image"));  // frames × height × width, row-major
  }
  // ==== end

  void compute() override {
    // ==== yours
    // TODO: your serial rung, with the work shared among the threads (task
    // sheet, step 2). What is a piece of work: a frame, a band of rows, or
    // both? The workshop stack has 32 frames, a single image has one. Each
    // thread needs a table of its own: where does it live, given that the
    // harness may change the thread count between runs?
    LADDER_TODO(
        "openmp: share the stack among the threads in compute() of exercises/spot_finding/openmp.cpp, then delete "
        "this line");
    // ==== end
  }

 private:
  // ==== exercise only
  Settings settings_;
  const std::uint16_t* image_ = nullptr;
  const std::uint8_t* mask_ = nullptr;
  std::uint8_t* signal_ = nullptr;
  spot_finding::Stack stack_;
  // ==== end
};

}  // namespace
LADDER_REGISTER_RUNG(spot_finding, openmp, OpenMpSpotFinding);
}  // namespace ladder
