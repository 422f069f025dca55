#pragma once
// What a convolution rung reads from its inputs before anything else: the
// image's H×W, the kernel's K×L, and the full output's (H+K-1)×(W+L-1).
// validate() has checked that both are 2-D and that the output has at most
// 2^31 - 1 pixels, so every size fits an int.
#include "ladder/array.hpp"

namespace ladder::convolution {

struct Sizes {
  int height = 0, width = 0;  // the image
  int rows = 0, columns = 0;  // the kernel, K×L
  int out_height() const { return height + rows - 1; }
  int out_width() const { return width + columns - 1; }
};

inline Sizes sizes_of(const Arrays& inputs) {
  const auto& image = inputs.at("image").shape();
  const auto& kernel = inputs.at("kernel").shape();
  return {static_cast<int>(image[0]), static_cast<int>(image[1]), static_cast<int>(kernel[0]),
          static_cast<int>(kernel[1])};
}

}  // namespace ladder::convolution
