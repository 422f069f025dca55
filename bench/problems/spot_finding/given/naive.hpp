#pragma once
// The naive rung's class (naive.cpp registers it and says its idea), in a
// header so that the tests can derive their planted mistakes from it.
#include "bench/problems/spot_finding/spot_finding.hpp"
#include "ladder/registry.hpp"

namespace ladder::spot_finding {

class NaiveSpotFinding : public HostRung {
 public:
  explicit NaiveSpotFinding(const RungContext& context) : settings_(settings_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<std::uint16_t>();
    mask_ = inputs.at("mask").view<std::uint8_t>();
    signal_ = outputs.at("signal").view<std::uint8_t>();
    stack_ = stack_of(inputs.at("image"));
  }

  void compute() override {
    const long height = long(stack_.height), width = long(stack_.width);
    for (std::size_t f = 0; f < stack_.frames; ++f) {
      const std::size_t first = f * stack_.frame_pixels();
      find_spots(image_.data() + first, mask_.data() + first, signal_.data() + first, height, width, width);
    }
  }

 protected:
  // The spots of one frame of height × width pixels, its rows `stride`
  // pixels apart in memory (stride = width for the naive rung's frames). A
  // function of its own because the tests plant a mistake by calling it on
  // each tile of a frame, as if the tile were a frame.
  void find_spots(const std::uint16_t* image, const std::uint8_t* mask, std::uint8_t* signal, long height, long width,
                  long stride) const {
    const long k = settings_.kernel_size;
    for (long y = 0; y < height; ++y)
      for (long x = 0; x < width; ++x) {
        std::uint32_t m = 0;
        std::uint64_t sum = 0, squares = 0;
        for (long dy = -k; dy <= k; ++dy)
          for (long dx = -k; dx <= k; ++dx) {
            const long ny = y + dy, nx = x + dx;
            if (ny < 0 || ny >= height || nx < 0 || nx >= width || !mask[ny * stride + nx]) continue;
            const std::uint64_t v = image[ny * stride + nx];
            m += 1, sum += v, squares += v * v;
          }
        const long p = y * stride + x;
        signal[p] = mask[p] && dispersion_test(m, sum, squares, image[p], settings_);
      }
  }

  Settings settings_;
  std::span<const std::uint16_t> image_;
  std::span<const std::uint8_t> mask_;
  std::span<std::uint8_t> signal_;
  Stack stack_;
};

}  // namespace ladder::spot_finding
