// naive: the definition. For every pixel, copy its k×k neighbourhood into a
// small array, reading across the borders with scipy's reflect rule, sort
// it, and take the middle element. k² log k² work per pixel, nothing shared
// between neighbouring pixels.
//
// Given to both tracks: the participant's track builds this file too, so
// that there is always a working rung to compare against.
#include <algorithm>
#include <vector>

#include "bench/problems/median_filter/median_filter.hpp"
#include "ladder/registry.hpp"

namespace ladder {
namespace {

using median_filter::reflect;

template <class T>
void naive_median(const T* in, T* out, const median_filter::Stack& stack, const median_filter::Settings& settings) {
  const long height = long(stack.height), width = long(stack.width), r = settings.radius();
  std::vector<T> window;
  for (std::size_t f = 0; f < stack.frames; ++f) {
    const T* frame = in + f * stack.frame_pixels();
    T* result = out + f * stack.frame_pixels();
    for (long y = 0; y < height; ++y)
      for (long x = 0; x < width; ++x) {
        window.clear();
        for (long i = -r; i <= r; ++i)
          for (long j = -r; j <= r; ++j) window.push_back(frame[reflect(y + i, height) * width + reflect(x + j, width)]);
        std::sort(window.begin(), window.end());
        result[y * width + x] = median_filter::choose(frame[y * width + x], window[window.size() / 2], settings);
      }
  }
}

class NaiveMedianFilter final : public HostRung {
 public:
  explicit NaiveMedianFilter(const RungContext& context) : settings_(median_filter::settings_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = &inputs.at("image");
    output_ = &outputs.at("output");
  }

  void compute() override {
    median_filter::with_pixel_type(image_->dtype(), [&](auto tag) {
      using T = decltype(tag);
      naive_median(image_->view<T>().data(), output_->view<T>().data(), median_filter::stack_of(*image_), settings_);
    });
  }

 private:
  median_filter::Settings settings_;
  const Array* image_ = nullptr;
  Array* output_ = nullptr;
};

}  // namespace
LADDER_REGISTER_RUNG(median_filter, naive, NaiveMedianFilter);
}  // namespace ladder
