// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// openmp: your serial convolution with the output rows shared among the
// cores. Each output row is written by one thread only.
#include "ladder/error.hpp"
// ==== end
#include "ladder/registry.hpp"

namespace ladder {
namespace {

class OpenMpConvolution final : public OpenMpRung {
 public:
  explicit OpenMpConvolution(const RungContext&) {}

  // ==== exercise only
  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<float>().data();
    kernel_ = inputs.at("kernel").view<float>().data();
    output_ = outputs.at("output").view<float>().data();
    height_ = static_cast<long>(inputs.at("image").shape()[0]);
    width_ = static_cast<long>(inputs.at("image").shape()[1]);
    rows_ = static_cast<long>(inputs.at("kernel").shape()[0]);
    columns_ = static_cast<long>(inputs.at("kernel").shape()[1]);
  }
  // ==== end

  void compute() override {
    // ==== yours
    // TODO: your serial rung, with its loops shared among the threads (task
    // sheet, step 2). If it pads the image first: can the padding be
    // shared too, and what must every thread wait for before it computes?
    LADDER_TODO("openmp: share the rows in compute() of exercises/convolution/openmp.cpp, then delete this line");
    // ==== end
  }

 private:
  // ==== exercise only
  const float* image_ = nullptr;
  const float* kernel_ = nullptr;
  float* output_ = nullptr;
  long height_ = 0, width_ = 0, rows_ = 0, columns_ = 0;
  // ==== end
};

}  // namespace
LADDER_REGISTER_RUNG(convolution, openmp, OpenMpConvolution);
}  // namespace ladder
