// polygon_mask: the even-odd mask two ways, line for line as in
// polygon_mask.cuh. Pixel (y, x) is tested at the point (x, y).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// No fused multiply-adds: the crossing test must round exactly as the
// reference's does, or a pixel next to an edge could flip.
#pragma OPENCL FP_CONTRACT OFF

// Does the ray from (tx, ty) towards +x cross the edge v0 -> v1?
// Matplotlib's test, the reference's expression operation for operation in
// float64: IEEE subtraction, multiplication and comparison round the same on
// every device, so the answer is the reference's bit for bit.
bool ray_crosses_edge(double2 v0, double2 v1, double tx, double ty) {
  const bool above1 = v1.y >= ty;
  return (v0.y >= ty) != above1 && (((v1.y - ty) * (v0.x - v1.x) >= (v1.x - tx) * (v0.y - v1.y)) == above1);
}

// Each work-item tests PIXELS_PER_ITEM neighbouring pixels of one row, so
// the vertex loads and the "does this edge straddle the row" test are
// shared by them; each work-group lies inside one row, so all its
// work-items agree on which edges straddle it (no divergence). The vertices
// are in constant memory: every work-item reads the same vertex at the
// same time, which the constant cache serves as one broadcast.
#ifndef PIXELS_PER_ITEM
#define PIXELS_PER_ITEM 4  // the host passes its own with -D
#endif

__kernel void polygon_mask_per_pixel(__constant double2* vertices, const uint n, const uint width,
                                     const uint groups_per_row, __global uchar* mask) {
  const uint group = get_group_id(0);
  const uint y = group / groups_per_row;
  const uint x0 = ((group % groups_per_row) * get_local_size(0) + get_local_id(0)) * PIXELS_PER_ITEM;
  if (x0 >= width) return;  // the row's last group overhangs it
  const double ty = y;
  bool inside[PIXELS_PER_ITEM] = {false};
  double2 v0 = vertices[n - 1];  // edge i runs from vertex i - 1 to vertex i
  for (uint i = 0; i < n; ++i) {
    const double2 v1 = vertices[i];
    if ((v0.y >= ty) != (v1.y >= ty)) {  // only an edge that straddles the row can be crossed
      for (uint p = 0; p < PIXELS_PER_ITEM; ++p)
        if (ray_crosses_edge(v0, v1, x0 + p, ty)) inside[p] = !inside[p];
    }
    v0 = v1;
  }
  for (uint p = 0; p < PIXELS_PER_ITEM && x0 + p < width; ++p) mask[(size_t)y * width + x0 + p] = inside[p];
}

// The first column k in [0, width] whose ray misses the edge: columns left
// of k cross it. Along a row the test is monotone in tx, so k exists; the
// intersection gives an estimate, the test itself the exact k (see
// solutions/polygon_mask/serial.cpp).
int crossing_column(double2 v0, double2 v1, double ty, int width) {
  const double xc = v0.x + (ty - v0.y) / (v1.y - v0.y) * (v1.x - v0.x);
  int k = !(xc > 0) ? 0 : xc >= width ? width : (int)ceil(xc);
  while (k > 0 && !ray_crosses_edge(v0, v1, k - 1, ty)) --k;
  while (k < width && ray_crosses_edge(v0, v1, k, ty)) ++k;
  return k;
}

// One work-item per row: the scanline. Instead of sorting the crossings,
// each one flips a flag at its column and a running XOR along the row turns
// the flags into spans (edge-flag fill): the row itself holds the flags, so
// any number of crossings fits.
__kernel void polygon_mask_per_row(__global const double2* vertices, const uint n, const uint width, const uint height,
                                   __global uchar* mask) {
  const uint y = get_global_id(0);
  if (y >= height) return;
  __global uchar* row = mask + (size_t)y * width;
  for (uint x = 0; x < width; ++x) row[x] = 0;
  const double ty = y;
  double2 v0 = vertices[n - 1];
  for (uint i = 0; i < n; ++i) {
    const double2 v1 = vertices[i];
    if ((v0.y >= ty) != (v1.y >= ty)) {
      const int k = crossing_column(v0, v1, ty, (int)width);
      if (k < (int)width) row[k] ^= 1;
    }
    v0 = v1;
  }
  uchar inside = 0;
  for (uint x = 0; x < width; ++x) {
    inside ^= row[x];
    row[x] = inside;
  }
}
