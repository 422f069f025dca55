#pragma once
// naive: the course's loop. For every pixel, walk around the polygon and
// flip "inside" each time the ray from the pixel towards +x crosses an
// edge: H·W·N edge tests, most of them on edges nowhere near the pixel.
//
// Given to both tracks: the participant's track builds it too (naive.cpp
// registers it), so that there is always a working rung to compare
// against. A header, so that the tests derive their planted mistakes
// from it.
#include <span>

#include "ladder/registry.hpp"

namespace ladder::polygon_mask {

// The even-odd test of one point, branch by branch as in the course, with
// matplotlib's crossing test (so it agrees with the reference bit for bit).
inline bool point_in_polygon(double tx, double ty, std::span<const double> vertices) {
  const std::size_t n = vertices.size() / 2;
  bool inside = false;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = (i + 1) % n;
    const double x0 = vertices[2 * i], y0 = vertices[2 * i + 1];
    const double x1 = vertices[2 * j], y1 = vertices[2 * j + 1];
    const bool above0 = y0 >= ty;
    const bool above1 = y1 >= ty;
    if (above0 != above1) {  // the edge straddles the ray's line
      const bool left_of_edge = (y1 - ty) * (x0 - x1) >= (x1 - tx) * (y0 - y1);
      if (left_of_edge == above1) inside = !inside;
    }
  }
  return inside;
}

class NaivePolygonMask : public HostRung {
 public:
  explicit NaivePolygonMask(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    vertices_ = inputs.at("vertices").view<double>();
    mask_ = outputs.at("mask").view<std::uint8_t>();
    height_ = outputs.at("mask").shape()[0];
    width_ = outputs.at("mask").shape()[1];
  }

  void compute() override {
    for (std::size_t y = 0; y < height_; ++y) mask_row(y);
  }

 protected:
  // Row y of the mask, each pixel tested at its (x, y). A function of its
  // own, once per row, because the tests plant a mistake here.
  virtual void mask_row(std::size_t y) {
    for (std::size_t x = 0; x < width_; ++x)
      mask_[y * width_ + x] = point_in_polygon(static_cast<double>(x), static_cast<double>(y), vertices_);
  }

  std::span<const double> vertices_;
  std::span<std::uint8_t> mask_;
  std::size_t height_ = 0, width_ = 0;
};

}  // namespace ladder::polygon_mask
