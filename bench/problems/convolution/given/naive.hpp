#pragma once
// naive: the definition, four nested loops. For every output pixel, every
// kernel tap, with a bounds check on every read:
//   output[y][x] = sum over (i, j) of kernel[i][j] * image[y - i][x - j], 0 outside the image.
//
// Given to both tracks: the participant's track builds it too (naive.cpp
// registers it), so that there is always a working rung to compare
// against. A header, so that the tests derive their planted mistakes
// from it.
#include "bench/problems/convolution/convolution.hpp"
#include "ladder/registry.hpp"

namespace ladder::convolution {

class NaiveConvolution : public HostRung {
 public:
  explicit NaiveConvolution(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<float>().data();
    kernel_ = inputs.at("kernel").view<float>().data();
    output_ = outputs.at("output").view<float>().data();
    const Sizes sizes = sizes_of(inputs);
    height_ = sizes.height, width_ = sizes.width, rows_ = sizes.rows, columns_ = sizes.columns;
  }

  void compute() override {
    const long out_height = height_ + rows_ - 1, out_width = width_ + columns_ - 1;
    for (long y = 0; y < out_height; ++y)
      for (long x = 0; x < out_width; ++x) {
        float sum = 0.0f;  // float is enough: the tests hold it to 1e-5 of the float64 reference
        for (long i = 0; i < rows_; ++i)
          for (long j = 0; j < columns_; ++j) {
            const long r = y - i, c = x - j;  // the kernel is flipped: a convolution, not a correlation
            if (r >= 0 && r < height_ && c >= 0 && c < width_)
              sum += kernel_[i * columns_ + j] * image_[r * width_ + c];
          }
        output_[y * out_width + x] = sum;
      }
  }

 protected:
  const float* image_ = nullptr;
  const float* kernel_ = nullptr;
  float* output_ = nullptr;
  long height_ = 0, width_ = 0, rows_ = 0, columns_ = 0;
};

}  // namespace ladder::convolution
