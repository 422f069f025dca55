// openmp: the serial rung with the output rows shared out among the
// threads. Each row is written by one thread only, and the padded image is
// only read, so the threads never wait for one another.
#include <algorithm>
#include <cstring>
#include <vector>

#include "ladder/registry.hpp"

namespace ladder {
namespace {

class OpenMpConvolution final : public HostRung {
 public:
  explicit OpenMpConvolution(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<float>().data();
    kernel_ = inputs.at("kernel").view<float>().data();
    output_ = outputs.at("output").view<float>().data();
    height_ = static_cast<long>(inputs.at("image").shape()[0]);
    width_ = static_cast<long>(inputs.at("image").shape()[1]);
    rows_ = static_cast<long>(inputs.at("kernel").shape()[0]);
    columns_ = static_cast<long>(inputs.at("kernel").shape()[1]);
    padded_width_ = width_ + 2 * (columns_ - 1);
    padded_.assign(static_cast<std::size_t>((height_ + 2 * (rows_ - 1)) * padded_width_), 0.0f);
  }

  void compute() override {
    const long height = height_, width = width_, rows = rows_, columns = columns_, padded_width = padded_width_;
    const float* image = image_;
    const float* kernel = kernel_;
    float* output = output_;
    float* padded = padded_.data();
    const long out_height = height + rows - 1, out_width = width + columns - 1;
#pragma omp parallel
    {
#pragma omp for schedule(static)
      for (long r = 0; r < height; ++r)
        std::memcpy(padded + (r + rows - 1) * padded_width + columns - 1, image + r * width, width * sizeof(float));
        // The implicit barrier of the loop above: the whole image is in before any row is computed.
#pragma omp for schedule(static)
      for (long y = 0; y < out_height; ++y) {
        float* out = output + y * out_width;
        std::fill(out, out + out_width, 0.0f);
        for (long a = 0; a < rows; ++a) {
          const float* in = padded + (y + a) * padded_width;
          for (long b = 0; b < columns; ++b) {
            const float w = kernel[(rows - 1 - a) * columns + (columns - 1 - b)];
            for (long x = 0; x < out_width; ++x) out[x] += w * in[x + b];
          }
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
LADDER_REGISTER_RUNG(convolution, openmp, Backend::openmp, OpenMpConvolution);
}  // namespace ladder
