#pragma once
// The zero-padded convolution shared by the serial and openmp rungs: pad
// the image once, so that no read needs a bounds check, and turn the loops
// around (output row, kernel row, kernel column, output column innermost):
// the inner loop is out[x] += w * in[x + b] over contiguous floats,
// branch-free, and the compiler vectorises it.
#include <algorithm>
#include <cstring>
#include <vector>

#include "bench/problems/convolution/convolution.hpp"
#include "ladder/array.hpp"
#include "ladder/widest_vectors.hpp"

namespace ladder::convolution {

class PaddedConvolution {
 public:
  void prepare(const Arrays& inputs, Arrays& outputs) {
    image_ = inputs.at("image").view<float>().data();
    kernel_ = inputs.at("kernel").view<float>().data();
    output_ = outputs.at("output").view<float>().data();
    const Sizes sizes = sizes_of(inputs);
    height_ = sizes.height, width_ = sizes.width, rows_ = sizes.rows, columns_ = sizes.columns;
    // K - 1 zero rows above and below, L - 1 zero columns left and right.
    // The border is zeroed here, once; copy_image_row() fills the inside.
    padded_width_ = width_ + 2 * (columns_ - 1);
    padded_.assign(static_cast<std::size_t>((height_ + 2 * (rows_ - 1)) * padded_width_), 0.0f);
  }

  long image_rows() const { return height_; }
  long output_rows() const { return height_ + rows_ - 1; }

  // Image row r into the inside of the padded image.
  void copy_image_row(long r) {
    std::memcpy(&padded_[(r + rows_ - 1) * padded_width_ + columns_ - 1], image_ + r * width_, width_ * sizeof(float));
  }

  // Output row y, from the padded image (all of it copied in first).
  void output_row(long y) const {
    const long out_width = width_ + columns_ - 1;
    convolve_row(padded_.data() + y * padded_width_, padded_width_, kernel_, rows_, columns_, output_ + y * out_width,
                 out_width);
  }

  // One output row of out_width floats from the K padded rows that start at
  // `in`, each padded_width floats apart (the mpi rung calls it on its own
  // part). Compiled for AVX-512, AVX2 and plain x86-64, the processor's widest
  // picked when the program starts (ladder/widest_vectors.hpp): the inner
  // loop is then 8 or 16 floats a step instead of SSE2's 4, and with AVX2
  // the compiler fuses each multiply and add into one rounding, so the
  // last bits differ from plain x86-64's (relative L2 error 2.55e-7 either
  // way on the workshop noise input; the check allows 1e-5).
  //
  // The row goes in blocks of kBlock outputs, so that a block and the input
  // it reads (4 KiB each) stay in the L1 cache for all K·L passes over it.
  // A whole row does at 2048² (8 KiB), not at 8192² (32 KiB): there every
  // pass streamed the row through L2, and serial took 2.2× OpenCV's
  // filter2D on the H200 machine's Xeon.
  LADDER_WIDEST_VECTORS static void convolve_row(const float* in, long padded_width, const float* kernel, long rows,
                                                 long columns, float* out, long out_width) {
    std::fill(out, out + out_width, 0.0f);
    for (long x0 = 0; x0 < out_width; x0 += kBlock) {
      const long x1 = std::min(out_width, x0 + kBlock);
      // Output (y, x) reads padded (y + a, x + b) with weight kernel[K-1-a][L-1-b].
      for (long a = 0; a < rows; ++a) {
        const float* row = in + a * padded_width;
        for (long b = 0; b < columns; ++b) {
          const float w = kernel[(rows - 1 - a) * columns + (columns - 1 - b)];
          for (long x = x0; x < x1; ++x) out[x] += w * row[x + b];
        }
      }
    }
  }

 private:
  static constexpr long kBlock = 1024;
  const float* image_ = nullptr;
  const float* kernel_ = nullptr;
  float* output_ = nullptr;
  long height_ = 0, width_ = 0, rows_ = 0, columns_ = 0, padded_width_ = 0;
  std::vector<float> padded_;
};

}  // namespace ladder::convolution
