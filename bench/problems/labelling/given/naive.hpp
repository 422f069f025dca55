#pragma once
// naive: flood fill. Scan the pixels in raster order; at each foreground
// pixel not yet labelled, start a new component and paint everything
// reachable from it. Components are met in raster order of their first
// pixel, so they are numbered as scipy numbers them. The pixels still to
// visit wait on an explicit stack: a recursive fill would need one stack
// frame per pixel of the component, and overflows on large ones (README).
//
// Given to both tracks: the participant's track builds it too (naive.cpp
// registers it), so that there is always a working rung to compare
// against. A header, so that the tests derive their planted mistakes
// from it.
#include <algorithm>
#include <vector>

#include "bench/problems/labelling/given/connectivity.hpp"
#include "ladder/registry.hpp"

namespace ladder::labelling {

class NaiveLabelling : public HostRung {
 public:
  explicit NaiveLabelling(const RungContext& context) : connectivity_(labelling::connectivity(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<std::uint8_t>();
    labels_ = outputs.at("labels").view<std::int32_t>();
    height_ = static_cast<long>(inputs.at("image").shape()[0]);
    width_ = static_cast<long>(inputs.at("image").shape()[1]);
  }

  void compute() override {
    std::fill(labels_.begin(), labels_.end(), 0);
    label_rows(0, height_, 0);
  }

 protected:
  // Labels rows first ... last - 1 as if they were the whole image, the
  // components numbered on from n; returns the last number given. The
  // naive rung labels all rows at once; the tests plant a mistake by
  // labelling strips of rows apart.
  std::int32_t label_rows(long first, long last, std::int32_t n) {
    for (long start = first * width_; start < last * width_; ++start) {
      if (image_[start] == 0 || labels_[start] != 0) continue;
      labels_[start] = ++n;
      stack_.assign(1, start);
      while (!stack_.empty()) {
        const long i = stack_.back();
        stack_.pop_back();
        const long y = i / width_, x = i % width_;
        for (long dy = -1; dy <= 1; ++dy)
          for (long dx = -1; dx <= 1; ++dx) {
            if ((dy == 0 && dx == 0) || (connectivity_ == 4 && dy != 0 && dx != 0)) continue;
            const long ny = y + dy, nx = x + dx;
            if (ny < first || ny >= last || nx < 0 || nx >= width_) continue;
            const long j = ny * width_ + nx;
            // Labelled when pushed, so that no pixel is pushed twice.
            if (image_[j] != 0 && labels_[j] == 0) {
              labels_[j] = n;
              stack_.push_back(j);
            }
          }
      }
    }
    return n;
  }

  int connectivity_;
  std::span<const std::uint8_t> image_;
  std::span<std::int32_t> labels_;
  long height_ = 0, width_ = 0;
  std::vector<long> stack_;
};

}  // namespace ladder::labelling
