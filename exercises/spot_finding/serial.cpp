// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// serial: the same window sums as naive.cpp without visiting the window.
// Running sums over the frame (a summed-area table, DIALS' own method) give
// any window's count, Σv and Σv² from a few reads, whatever its size: O(1)
// a pixel instead of naive's (2k+1)².
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

class SerialSpotFinding final : public HostRung {
  // ==== end
 public:
  // ==== yours
  explicit SerialSpotFinding(const RungContext& context) : settings_(spot_finding::settings_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<std::uint16_t>().data();
    mask_ = inputs.at("mask").view<std::uint8_t>().data();
    signal_ = outputs.at("signal").view<std::uint8_t>().data();
    stack_ = spot_finding::stack_of(inputs.at("image"));  // frames × height × width, row-major
    // TODO (optional): space that compute() reuses on every call, such as
    // the table, is best allocated here, once.
  }
  // ==== end

  void compute() override {
    // ==== yours
    // TODO: signal_[p] = 1 where naive.cpp marks pixel p, else 0, bit for
    // bit (task sheet, step 1). Frame by frame: build the table of running
    // sums of m (valid pixels), Σv and Σv² over the valid pixels, then each
    // pixel's window sums from the table, clipped to the frame, and
    // spot_finding::dispersion_test(m, Σv, Σv², v, settings_) as naive
    // calls it (only where mask_[p] is 1). Which integer types hold the
    // table's entries, and what happens when they overflow?
    LADDER_TODO(
        "serial: write the summed-area tables in compute() of exercises/spot_finding/serial.cpp, then delete this "
        "line");
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
LADDER_REGISTER_RUNG(spot_finding, serial, SerialSpotFinding);
}  // namespace ladder
