#pragma once
// The scanline, shared by the serial and openmp rungs: a row's pixels share
// ty, so each edge's crossing with the row is found once; sorted, the
// crossings bound the inside spans. About H·N·log N + H·W operations
// instead of naive's H·W·N.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace ladder::polygon_mask {

// Matplotlib's crossing test, the same expression as naive's.
inline bool ray_crosses_edge(double x0, double y0, double x1, double y1, double tx, double ty) {
  const bool above1 = y1 >= ty;
  return (y0 >= ty) != above1 && (((y1 - ty) * (x0 - x1) >= (x1 - tx) * (y0 - y1)) == above1);
}

// The first column k in [0, width] whose ray misses the edge: columns left
// of k cross it, k and beyond do not. Along a row the test compares a
// constant with a rounded product that only grows (or only shrinks) with
// tx, so such a k exists. We estimate it from the intersection, then
// correct it with the test itself: the mask is the per-pixel test's, bit
// for bit, even for a pixel a rounding error away from an edge.
inline int crossing_column(double x0, double y0, double x1, double y1, double ty, int width) {
  const double xc = x0 + (ty - y0) / (y1 - y0) * (x1 - x0);
  int k = !(xc > 0) ? 0 : xc >= width ? width : static_cast<int>(std::ceil(xc));
  while (k > 0 && !ray_crosses_edge(x0, y0, x1, y1, k - 1, ty)) --k;
  while (k < width && ray_crosses_edge(x0, y0, x1, y1, k, ty)) ++k;
  return k;
}

// Fills `row` (row y of the mask, `width` bytes) from the polygon's
// crossings with it. `crossings` is scratch space reused from row to row.
inline void fill_row(std::span<const double> vertices, int y, int width, std::uint8_t* row,
                     std::vector<int>& crossings) {
  const double ty = y;
  const std::size_t n = vertices.size() / 2;
  crossings.clear();
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = (i + 1) % n;
    const double x0 = vertices[2 * i], y0 = vertices[2 * i + 1];
    const double x1 = vertices[2 * j], y1 = vertices[2 * j + 1];
    if ((y0 >= ty) != (y1 >= ty)) crossings.push_back(crossing_column(x0, y0, x1, y1, ty, width));
  }
  std::sort(crossings.begin(), crossings.end());
  // Each crossing flips inside/outside. A closed polygon crosses a row an
  // even number of times, so the row ends outside.
  std::uint8_t inside = 0;
  int x = 0;
  for (int k : crossings) {
    std::fill(row + x, row + k, inside);
    x = k;
    inside ^= 1;
  }
  std::fill(row + x, row + width, std::uint8_t{0});
}

}  // namespace ladder::polygon_mask
