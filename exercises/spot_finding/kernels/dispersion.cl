// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// DIALS' dispersion threshold, one work-group per tile of one frame.
//
// Build options from the host: RADIUS (the half-size k: the window is
// (2k+1)² pixels), TILE_W and TILE_H (32 × 32 output pixels a tile),
// GROUP_ROWS (8). The launch is 3-D, x first: TILE_W × GROUP_ROWS = 256
// work-items a group, so each work-item has TILE_H / GROUP_ROWS = 4 output
// pixels of its tile. Group (get_group_id(0), get_group_id(1),
// get_group_id(2)) takes, in frame get_group_id(2), the tile that many
// tiles across and down; its work-item (get_local_id(0), get_local_id(1))
// is that many columns across and rows down in the group. Tiles at the
// right and bottom edge reach past the frame.
//
// image, mask, signal: frames of height × width, row-major. A pixel's window
// is clipped to its frame, and only its valid pixels (mask 1) count:
// m = how many, x = Σv, y = Σv², exact integers. signal = 1 where the pixel
// is valid and signal_test holds, else 0.
// ==== end
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// No fused multiply-adds: a and b are exact either way, but the kernel
// should say that it evaluates DIALS' expression as written.
#pragma OPENCL FP_CONTRACT OFF

#define ROWS (TILE_H + 2 * RADIUS)
#define COLUMNS (TILE_W + 2 * RADIUS)
#define FULL_WINDOW ((2 * RADIUS + 1) * (2 * RADIUS + 1))

// ==== exercise only
// Given: spot_finding.hpp's dispersion_test, term by term in the same order,
// so that the mask is DIALS' bit for bit. root_full = sqrt(2 (m - 1)) of a
// full window comes from the host (its sqrt rounds as the device's does),
// and d's root is taken only where a > c and b > 0 (d >= 0): same bits.
// ==== end
bool signal_test(uint m, ulong x, ulong y, uint v, uint min_count, double threshold, double sigma_b,
                 double sigma_s, double root_full) {
  if (m < min_count || !(v > threshold)) return false;
  const double dm = m, dx = (double)x, dy = (double)y;
  const double a = dm * dy - dx * dx - dx * (dm - 1);
  const double b = dm * v - dx;
  const double root = m == FULL_WINDOW ? root_full : sqrt(2 * (dm - 1));
  const double c = dx * sigma_b * root;
  if (!(a > c && b > 0)) return false;
  const double d = sigma_s * sqrt(dx * dm);
  return b > d;
}

// ==== exercise only
// LADDER_TODO: write the kernel's body, then delete this line.
// ==== end
__kernel void dispersion_mask(__global const ushort* image, __global const uchar* mask, __global uchar* signal,
                              const int height, const int width, const uint min_count, const double threshold, const double sigma_b,
                              const double sigma_s, const double root_full) {
  // ==== yours
  // TODO: (1) the work-group loads the ROWS × COLUMNS pixels its tile's
  // windows reach into __local memory, all work-items together (outside the
  // frame counts as masked: the only bounds checks); (2) the window sums of
  // each output pixel from local memory; (3) signal_test, and the write, if
  // the pixel lies inside the frame. There are more pixels to load than
  // work-items: which does each load, so that neighbouring work-items read
  // neighbouring addresses? How does a loaded pixel say that it is masked?
  // What must every work-item wait for, and when? Summing (2k+1)² values a
  // pixel works; can you do it in fewer additions, and in which integer
  // types?
  // ==== end
}
