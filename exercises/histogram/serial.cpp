// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// serial: the fast single-core histogram. naive.cpp's counts[v]++ makes
// every repeated value wait for the previous increment of the same counter;
// yours should let equal values in a row be counted side by side.
// ==== end
#include <array>

// ==== exercise only
#include "ladder/error.hpp"
// ==== end
#include "ladder/registry.hpp"

namespace ladder {
namespace {

class SerialHistogram final : public HostRung {
 public:
  explicit SerialHistogram(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    values_ = inputs.at("values").view<std::uint8_t>().data();
    n_ = inputs.at("values").size();
    counts_ = outputs.at("counts").view<std::uint32_t>().data();
  }

  void compute() override {
    // ==== yours
    // TODO: counts_[v] = how many of values_[0, n_) equal v, for all 256
    // bins, starting from zero on every call (task sheet, step 1). Count
    // into a few private copies of the 256 counters, then add them up.
    LADDER_TODO("serial: write the histogram in compute() of exercises/histogram/serial.cpp, then delete this line");
    // ==== end
  }

 private:
  const std::uint8_t* values_ = nullptr;
  std::size_t n_ = 0;
  std::uint32_t* counts_ = nullptr;
};

}  // namespace
LADDER_REGISTER_RUNG(histogram, serial, SerialHistogram);
}  // namespace ladder
