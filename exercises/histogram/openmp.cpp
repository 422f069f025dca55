// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// openmp: your serial histogram, shared among the cores. Each thread counts
// its own chunk; no shared counter should be touched while counting.
// ==== end
#include <omp.h>

#include <algorithm>
#include <array>

// ==== exercise only
#include "ladder/error.hpp"
// ==== end
#include "ladder/registry.hpp"

namespace ladder {
namespace {

class OpenMpHistogram final : public OpenMpRung {
 public:
  explicit OpenMpHistogram(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    values_ = inputs.at("values").view<std::uint8_t>().data();
    n_ = inputs.at("values").size();
    counts_ = outputs.at("counts").view<std::uint32_t>().data();
  }

  void compute() override {
    // ==== yours
    // TODO: zero counts_, then one parallel region in which each thread
    // counts its chunk of values_ into private counters and adds them to
    // counts_ once at the end (task sheet, step 2). Which threads may write
    // counts_ at the same moment, and what must protect those writes?
    LADDER_TODO("openmp: write the histogram in compute() of exercises/histogram/openmp.cpp, then delete this line");
    // ==== end
  }

 private:
  const std::uint8_t* values_ = nullptr;
  std::size_t n_ = 0;
  std::uint32_t* counts_ = nullptr;
};

}  // namespace
LADDER_REGISTER_RUNG(histogram, openmp, OpenMpHistogram);
}  // namespace ladder
