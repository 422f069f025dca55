// serial: pad the image with zeros once, so that no read needs a bounds
// check, and turn the loops around (output row, kernel row, kernel column,
// output column innermost): the inner loop is out[x] += w * in[x + b] over
// contiguous floats, branch-free, and the compiler vectorises it
// (padded.hpp).
#include "ladder/registry.hpp"
#include "padded.hpp"

namespace ladder {
namespace {

class SerialConvolution final : public HostRung {
 public:
  explicit SerialConvolution(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override { convolution_.prepare(inputs, outputs); }

  void compute() override {
    for (long r = 0; r < convolution_.image_rows(); ++r) convolution_.copy_image_row(r);
    for (long y = 0; y < convolution_.output_rows(); ++y) convolution_.output_row(y);
  }

 private:
  convolution::PaddedConvolution convolution_;
};

}  // namespace
LADDER_REGISTER_RUNG(convolution, serial, SerialConvolution);
}  // namespace ladder
