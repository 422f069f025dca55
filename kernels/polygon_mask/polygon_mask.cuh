#pragma once
// polygon_mask: the even-odd mask two ways, line for line as in
// polygon_mask.cl. Pixel (y, x) is tested at the point (x, y).
#include <cstdint>

constexpr int kMaxPolygonVertices = 4096;  // 64 KiB: all the constant memory a kernel may use

// The vertices, for the per-pixel kernel: every thread of a warp reads the
// same vertex at the same time, which the constant cache serves as one
// broadcast.
__constant__ double2 c_polygon_vertices[kMaxPolygonVertices];

// Does the ray from (tx, ty) towards +x cross the edge v0 -> v1?
// Matplotlib's test, the reference's expression operation for operation in
// float64. __dmul_rn is a product that nvcc never fuses into an FMA, so the
// test rounds exactly as the reference's and agrees with it bit for bit.
__device__ inline bool ray_crosses_edge(double2 v0, double2 v1, double tx, double ty) {
  const bool above1 = v1.y >= ty;
  return (v0.y >= ty) != above1 && ((__dmul_rn(v1.y - ty, v0.x - v1.x) >= __dmul_rn(v1.x - tx, v0.y - v1.y)) == above1);
}

// Each thread tests kPixelsPerThread neighbouring pixels of one row, so the
// vertex loads and the "does this edge straddle the row" test are shared by
// them; each block lies inside one row, so all its threads agree on which
// edges straddle it (no divergence). Every pixel still goes through
// ray_crosses_edge, the reference's expression.
constexpr unsigned kPixelsPerThread = 4;

__global__ void polygon_mask_per_pixel(unsigned n, unsigned width, unsigned blocks_per_row,
                                       std::uint8_t* __restrict__ mask) {
  const unsigned y = blockIdx.x / blocks_per_row;
  const unsigned x0 = ((blockIdx.x % blocks_per_row) * blockDim.x + threadIdx.x) * kPixelsPerThread;
  if (x0 >= width) return;  // the row's last block overhangs it
  const double ty = y;
  bool inside[kPixelsPerThread] = {};
  double2 v0 = c_polygon_vertices[n - 1];  // edge i runs from vertex i - 1 to vertex i
  for (unsigned i = 0; i < n; ++i) {
    const double2 v1 = c_polygon_vertices[i];
    if ((v0.y >= ty) != (v1.y >= ty)) {  // only an edge that straddles the row can be crossed
      for (unsigned p = 0; p < kPixelsPerThread; ++p)
        if (ray_crosses_edge(v0, v1, x0 + p, ty)) inside[p] = !inside[p];
    }
    v0 = v1;
  }
  for (unsigned p = 0; p < kPixelsPerThread && x0 + p < width; ++p) mask[std::size_t{y} * width + x0 + p] = inside[p];
}

// The first column k in [0, width] whose ray misses the edge: columns left
// of k cross it. Along a row the test is monotone in tx, so k exists; the
// intersection gives an estimate, the test itself the exact k (see
// solutions/polygon_mask/serial.cpp).
__device__ inline int crossing_column(double2 v0, double2 v1, double ty, int width) {
  const double xc = v0.x + (ty - v0.y) / (v1.y - v0.y) * (v1.x - v0.x);
  int k = !(xc > 0) ? 0 : xc >= width ? width : static_cast<int>(ceil(xc));
  while (k > 0 && !ray_crosses_edge(v0, v1, k - 1, ty)) --k;
  while (k < width && ray_crosses_edge(v0, v1, k, ty)) ++k;
  return k;
}

// One thread per row: the scanline. Instead of sorting the crossings, each
// one flips a flag at its column and a running XOR along the row turns the
// flags into spans (edge-flag fill): the row itself holds the flags, so any
// number of crossings fits.
__global__ void polygon_mask_per_row(const double2* __restrict__ vertices, unsigned n, unsigned width, unsigned height,
                                     std::uint8_t* __restrict__ mask) {
  const unsigned y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y >= height) return;
  std::uint8_t* row = mask + std::size_t{y} * width;
  for (unsigned x = 0; x < width; ++x) row[x] = 0;
  const double ty = y;
  double2 v0 = vertices[n - 1];
  for (unsigned i = 0; i < n; ++i) {
    const double2 v1 = vertices[i];
    if ((v0.y >= ty) != (v1.y >= ty)) {
      const int k = crossing_column(v0, v1, ty, static_cast<int>(width));
      if (k < static_cast<int>(width)) row[k] ^= 1;
    }
    v0 = v1;
  }
  std::uint8_t inside = 0;
  for (unsigned x = 0; x < width; ++x) {
    inside ^= row[x];
    row[x] = inside;
  }
}
