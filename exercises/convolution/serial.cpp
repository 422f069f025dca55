// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// serial: the same sums as naive.cpp without a bounds check in the inner
// loop, in an order the compiler can vectorise: pad the image with zeros
// once, then make the innermost loop run over neighbouring output pixels.
#include "ladder/error.hpp"
// ==== end
#include "ladder/registry.hpp"

namespace ladder {
namespace {

class SerialConvolution final : public HostRung {
 public:
  explicit SerialConvolution(const RungContext&) {}

  // ==== yours
  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<float>().data();
    kernel_ = inputs.at("kernel").view<float>().data();
    output_ = outputs.at("output").view<float>().data();
    height_ = static_cast<long>(inputs.at("image").shape()[0]);
    width_ = static_cast<long>(inputs.at("image").shape()[1]);
    rows_ = static_cast<long>(inputs.at("kernel").shape()[0]);
    columns_ = static_cast<long>(inputs.at("kernel").shape()[1]);
    // TODO (optional): space that compute() reuses on every call, such as
    // a padded copy of the image, is best allocated here, once.
  }
  // ==== end

  void compute() override {
    // ==== yours
    // TODO: output (height_ + rows_ - 1) × (width_ + columns_ - 1), the full
    // convolution of image_ (height_ × width_) with kernel_ (rows_ ×
    // columns_), as naive.cpp computes it, within 1e-5 (task sheet, step 1).
    // Which loop is innermost in naive, and what does each of its
    // iterations check?
    LADDER_TODO(
        "serial: write the convolution in compute() of exercises/convolution/serial.cpp, then delete this line");
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
LADDER_REGISTER_RUNG(convolution, serial, SerialConvolution);
}  // namespace ladder
