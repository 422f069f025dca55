// naive: the brute-force window, the logic of the notes' GPU kernel run on
// the CPU. For every pixel, visit each of the (2k+1)² neighbours, skip those
// outside the frame or masked, and sum count, Σv and Σv² exactly; then
// DIALS' test. (2k+1)² = 49 visits a pixel at k = 3: the rungs above get
// the same sums with a handful of operations.
//
// Given to both tracks: the participant's track builds this file too, so
// that there is always a working rung to compare against.
#include "bench/problems/spot_finding/spot_finding.hpp"
#include "ladder/registry.hpp"

namespace ladder {
namespace {

using spot_finding::Settings;

class NaiveSpotFinding final : public HostRung {
 public:
  explicit NaiveSpotFinding(const RungContext& context) : settings_(spot_finding::settings_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<std::uint16_t>();
    mask_ = inputs.at("mask").view<std::uint8_t>();
    signal_ = outputs.at("signal").view<std::uint8_t>();
    stack_ = spot_finding::stack_of(inputs.at("image"));
  }

  void compute() override {
    const long k = settings_.kernel_size, height = long(stack_.height), width = long(stack_.width);
    for (std::size_t f = 0; f < stack_.frames; ++f) {
      const std::uint16_t* image = image_.data() + f * stack_.frame_pixels();
      const std::uint8_t* mask = mask_.data() + f * stack_.frame_pixels();
      std::uint8_t* signal = signal_.data() + f * stack_.frame_pixels();
      for (long y = 0; y < height; ++y)
        for (long x = 0; x < width; ++x) {
          std::uint32_t m = 0;
          std::uint64_t sum = 0, squares = 0;
          for (long dy = -k; dy <= k; ++dy)
            for (long dx = -k; dx <= k; ++dx) {
              const long ny = y + dy, nx = x + dx;
              if (ny < 0 || ny >= height || nx < 0 || nx >= width || !mask[ny * width + nx]) continue;
              const std::uint64_t v = image[ny * width + nx];
              m += 1, sum += v, squares += v * v;
            }
          const long p = y * width + x;
          signal[p] = mask[p] && spot_finding::dispersion_test(m, sum, squares, image[p], settings_);
        }
    }
  }

 private:
  Settings settings_;
  std::span<const std::uint16_t> image_;
  std::span<const std::uint8_t> mask_;
  std::span<std::uint8_t> signal_;
  spot_finding::Stack stack_;
};

}  // namespace
LADDER_REGISTER_RUNG(spot_finding, naive, NaiveSpotFinding);
}  // namespace ladder
