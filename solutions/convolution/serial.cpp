// serial: pad the image with zeros once, so that no read needs a bounds
// check, and turn the loops around (output row, kernel row, kernel column,
// output column innermost): the inner loop is out[x] += w * in[x + b] over
// contiguous floats, branch-free, and the compiler vectorises it.
#include <algorithm>
#include <cstring>
#include <vector>

#include "ladder/registry.hpp"

namespace ladder {
namespace {

class SerialConvolution final : public HostRung {
 public:
  explicit SerialConvolution(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<float>().data();
    kernel_ = inputs.at("kernel").view<float>().data();
    output_ = outputs.at("output").view<float>().data();
    height_ = static_cast<long>(inputs.at("image").shape()[0]);
    width_ = static_cast<long>(inputs.at("image").shape()[1]);
    rows_ = static_cast<long>(inputs.at("kernel").shape()[0]);
    columns_ = static_cast<long>(inputs.at("kernel").shape()[1]);
    // K - 1 zero rows above and below, L - 1 zero columns left and right.
    // The border is zeroed here, once; compute() copies the image inside it.
    padded_width_ = width_ + 2 * (columns_ - 1);
    padded_.assign(static_cast<std::size_t>((height_ + 2 * (rows_ - 1)) * padded_width_), 0.0f);
  }

  void compute() override {
    for (long r = 0; r < height_; ++r)
      std::memcpy(&padded_[(r + rows_ - 1) * padded_width_ + columns_ - 1], image_ + r * width_,
                  width_ * sizeof(float));

    const long out_height = height_ + rows_ - 1, out_width = width_ + columns_ - 1;
    for (long y = 0; y < out_height; ++y) {
      float* out = output_ + y * out_width;
      std::fill(out, out + out_width, 0.0f);
      // Output (y, x) reads padded (y + a, x + b) with weight kernel[K-1-a][L-1-b].
      for (long a = 0; a < rows_; ++a) {
        const float* in = padded_.data() + (y + a) * padded_width_;
        for (long b = 0; b < columns_; ++b) {
          const float w = kernel_[(rows_ - 1 - a) * columns_ + (columns_ - 1 - b)];
          for (long x = 0; x < out_width; ++x) out[x] += w * in[x + b];
        }
      }
    }
  }

 private:
  const float* image_ = nullptr;
  const float* kernel_ = nullptr;
  float* output_ = nullptr;
  long height_ = 0, width_ = 0, rows_ = 0, columns_ = 0, padded_width_ = 0;
  std::vector<float> padded_;
};

}  // namespace
LADDER_REGISTER_RUNG(convolution, serial, Backend::host, SerialConvolution);
}  // namespace ladder
