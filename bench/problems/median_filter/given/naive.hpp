#pragma once
// naive: the definition. For every pixel, copy its k×k neighbourhood into a
// small array, reading across the borders with scipy's reflect rule, sort
// it, and take the middle element. k² log k² work per pixel, nothing shared
// between neighbouring pixels.
//
// Given to both tracks: the participant's track builds it too (naive.cpp
// registers it), so that there is always a working rung to compare
// against. A header, so that the tests derive their planted mistakes
// from it.
#include <algorithm>
#include <vector>

#include "bench/problems/median_filter/median_filter.hpp"
#include "ladder/registry.hpp"

namespace ladder::median_filter {

// The filter of every frame, reading past its edges by the rule `border`:
// border(i, n) is the row (or column) read for row i of a frame of n rows.
template <class T, class Border>
void naive_median(const T* in, T* out, const Stack& stack, const Settings& settings, Border border) {
  const long height = long(stack.height), width = long(stack.width), r = settings.radius();
  std::vector<T> window;
  for (std::size_t f = 0; f < stack.frames; ++f) {
    const T* frame = in + f * stack.frame_pixels();
    T* result = out + f * stack.frame_pixels();
    for (long y = 0; y < height; ++y)
      for (long x = 0; x < width; ++x) {
        window.clear();
        for (long i = -r; i <= r; ++i)
          for (long j = -r; j <= r; ++j) window.push_back(frame[border(y + i, height) * width + border(x + j, width)]);
        std::sort(window.begin(), window.end());
        result[y * width + x] = choose(frame[y * width + x], window[window.size() / 2], settings);
      }
  }
}

class NaiveMedianFilter : public HostRung {
 public:
  explicit NaiveMedianFilter(const RungContext& context) : settings_(settings_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = &inputs.at("image");
    output_ = &outputs.at("output");
  }

  void compute() override {
    filter([](long i, long n) { return reflect(i, n); });
  }

 protected:
  // The filter with `border` its rule past the edges: scipy's reflect for
  // the naive rung. A parameter, because the tests plant another rule; a
  // lambda, not a function pointer, so that the compiler inlines it.
  template <class Border>
  void filter(Border border) {
    with_pixel_type(image_->dtype(), [&](auto tag) {
      using T = decltype(tag);
      naive_median(image_->view<T>().data(), output_->view<T>().data(), stack_of(*image_), settings_, border);
    });
  }

  Settings settings_;
  const Array* image_ = nullptr;
  Array* output_ = nullptr;
};

}  // namespace ladder::median_filter
