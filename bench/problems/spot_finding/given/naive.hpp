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
    for (std::size_t f = 0; f < stack_.frames; ++f) find_spots(f, {0, long(stack_.height), 0, long(stack_.width)});
  }

 protected:
  // Rows top ... bottom - 1 and columns left ... right - 1 of a frame.
  struct Region {
    long top, bottom, left, right;
  };

  // The spots of a region of frame f, its windows reading no pixel outside
  // it. The naive rung's region is the whole frame; the tests plant a
  // mistake by finding the spots tile by tile.
  void find_spots(std::size_t f, Region region) {
    const long k = settings_.kernel_size, width = long(stack_.width);
    const std::uint16_t* image = image_.data() + f * stack_.frame_pixels();
    const std::uint8_t* mask = mask_.data() + f * stack_.frame_pixels();
    std::uint8_t* signal = signal_.data() + f * stack_.frame_pixels();
    for (long y = region.top; y < region.bottom; ++y)
      for (long x = region.left; x < region.right; ++x) {
        std::uint32_t m = 0;
        std::uint64_t sum = 0, squares = 0;
        for (long dy = -k; dy <= k; ++dy)
          for (long dx = -k; dx <= k; ++dx) {
            const long ny = y + dy, nx = x + dx;
            if (ny < region.top || ny >= region.bottom || nx < region.left || nx >= region.right) continue;
            if (!mask[ny * width + nx]) continue;
            const std::uint64_t v = image[ny * width + nx];
            m += 1, sum += v, squares += v * v;
          }
        const long p = y * width + x;
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
