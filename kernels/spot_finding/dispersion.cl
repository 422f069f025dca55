// DIALS' dispersion threshold in OpenCL C: the CUDA kernel's three steps
// (dispersion.cuh), with local memory for shared memory. One work-group of
// TILE_W × GROUP_ROWS work-items per TILE_W × TILE_H tile of one frame; the
// launch is 3-D, x first: group (i, j, f) takes the tile i tiles across and
// j down in frame f.
// Built with -DRADIUS=k -DTILE_W -DTILE_H -DGROUP_ROWS, so the local arrays
// have compile-time sizes.
//
// 1. The group loads its tile and the k-pixel halo cooperatively: every
//    work-item a few pixels, in one coalesced pass. (The notes' kernel let
//    one work-item load the whole tile while the rest waited at the
//    barrier: the load was serial.)
// 2. Horizontal sums of 2k+1 pixels for every halo row and output column.
// 3. Vertical sums of 2k+1 of those, slid down 4 consecutive rows per
//    work-item, and DIALS' test.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// No fused multiply-adds: a and b are exact either way, but the kernel
// should say that it evaluates DIALS' expression as written.
#pragma OPENCL FP_CONTRACT OFF

#define ROWS (TILE_H + 2 * RADIUS)
#define COLUMNS (TILE_W + 2 * RADIUS)
#define ROWS_PER_ITEM (TILE_H / GROUP_ROWS)
#define FULL_WINDOW ((2 * RADIUS + 1) * (2 * RADIUS + 1))
#define VALID 0x10000u  // a loaded pixel: bit 16 = valid, low 16 bits = its value (0 when not valid)

// spot_finding.hpp's dispersion_test, term by term in the same order, with
// the CUDA kernel's two savings (same bits): root_full = sqrt(2 (m - 1)) of
// a full window comes from the host, and d's root is taken only where
// a > c and b > 0 (d >= 0).
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

__kernel void dispersion_mask(__global const ushort* image, __global const uchar* mask, __global uchar* signal,
                              const int height, const int width, const uint min_count, const double threshold, const double sigma_b,
                              const double sigma_s, const double root_full) {
  __local uint pixels[ROWS * COLUMNS];
  __local uint row_m[ROWS * TILE_W];
  __local uint row_x[ROWS * TILE_W];
  __local ulong row_y[ROWS * TILE_W];

  const int tx = get_local_id(0), ty = get_local_id(1);
  const size_t frame = get_group_id(2) * height * width;
  const int x0 = get_group_id(0) * TILE_W, y0 = get_group_id(1) * TILE_H;

  // 1. The tile and its halo, a row of work-items a row at a time; outside
  //    the frame counts as masked.
  for (int r = ty; r < ROWS; r += GROUP_ROWS)
    for (int c = tx; c < COLUMNS; c += TILE_W) {
      const int gy = y0 - RADIUS + r, gx = x0 - RADIUS + c;
      uint p = 0;
      if (gy >= 0 && gy < height && gx >= 0 && gx < width) {
        const size_t g = frame + (size_t)gy * width + gx;
        if (mask[g]) p = VALID | image[g];
      }
      pixels[r * COLUMNS + c] = p;
    }
  barrier(CLK_LOCAL_MEM_FENCE);  // the whole halo loaded before anyone sums across it

  // 2. Across.
  for (int r = ty; r < ROWS; r += GROUP_ROWS) {
    const int at = r * COLUMNS + tx;
    uint m = 0, x = 0;
    ulong y = 0;
    for (int d = 0; d <= 2 * RADIUS; ++d) {
      const uint v = pixels[at + d] & 0xFFFFu;
      m += pixels[at + d] >> 16, x += v, y += (ulong)(v * v);  // v² < 2^32
    }
    row_m[r * TILE_W + tx] = m, row_x[r * TILE_W + tx] = x, row_y[r * TILE_W + tx] = y;
  }
  barrier(CLK_LOCAL_MEM_FENCE);  // every row sum ready before the columns are summed

  // 3. Down, sliding over ROWS_PER_ITEM consecutive output rows (output row
  //    r's window is halo rows r to r + 2k), and the test.
  const int first = ty * ROWS_PER_ITEM, gx = x0 + tx;
  uint m = 0, x = 0;
  ulong y = 0;
  for (int d = 0; d <= 2 * RADIUS; ++d) {
    const int i = (first + d) * TILE_W + tx;
    m += row_m[i], x += row_x[i], y += row_y[i];
  }
  for (int r = first; r < first + ROWS_PER_ITEM; ++r) {
    if (r > first) {
      const int in = (r + 2 * RADIUS) * TILE_W + tx, out = (r - 1) * TILE_W + tx;
      m += row_m[in] - row_m[out], x += row_x[in] - row_x[out], y += row_y[in] - row_y[out];  // exact: unsigned wrap cancels
    }
    const int gy = y0 + r;
    if (gx >= width || gy >= height) continue;
    const uint centre = pixels[(r + RADIUS) * COLUMNS + tx + RADIUS];
    signal[frame + (size_t)gy * width + gx] =
        (centre & VALID) && signal_test(m, x, y, centre & 0xFFFFu, min_count, threshold, sigma_b, sigma_s, root_full);
  }
}
