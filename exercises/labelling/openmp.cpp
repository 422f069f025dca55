// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// openmp: your two passes on horizontal strips, one per thread, then the
// strips joined across their borders and the components numbered.
// ==== end
#include <omp.h>

// ==== exercise only
#include <cstdint>
// ==== end
#include <vector>

// ==== exercise only
#include "ladder/error.hpp"
#include "ladder/registry.hpp"
#include "bench/problems/labelling/given/connectivity.hpp"
// ==== end

namespace ladder {
namespace {

// ==== exercise only
class OpenMpLabelling final : public OpenMpRung {
  // ==== end
 public:
  // ==== exercise only
  explicit OpenMpLabelling(const RungContext& context) : connectivity_(labelling::connectivity(context.params)) {}
  // ==== end

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    // ==== exercise only
    image_ = inputs.at("image").view<std::uint8_t>().data();
    labels_ = outputs.at("labels").view<std::int32_t>().data();
    height_ = static_cast<long>(inputs.at("image").shape()[0]);
    width_ = static_cast<long>(inputs.at("image").shape()[1]);
    // ==== end
  }

  void compute() override {
    // ==== yours
    // TODO: naive's output exactly, with the work shared among the threads
    // (task sheet, step 2). (1) Each thread runs your first pass on its own
    // strip of rows, with its own range of provisional labels. (2) The
    // strips are joined: each strip's first row with the row above it.
    // (3) The roots are numbered in raster order: how does a strip know the
    // first number it may give? (4) Each thread rewrites its own rows.
    LADDER_TODO("openmp: write the strips in compute() of exercises/labelling/openmp.cpp, then delete this line");
    // ==== end
  }

 private:
  // ==== exercise only
  int connectivity_;
  const std::uint8_t* image_ = nullptr;
  std::int32_t* labels_ = nullptr;
  long height_ = 0, width_ = 0;
  // ==== end
};

}  // namespace
LADDER_REGISTER_RUNG(labelling, openmp, OpenMpLabelling);
}  // namespace ladder
