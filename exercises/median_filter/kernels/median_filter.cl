// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// The k×k median filter of a stack of frames, one work-group per TILE×TILE
// block of output pixels of one frame:
//   output[f][y][x] = the middle (the (K*K/2)-th, from 0) of the K*K values
//   image[f][reflect(y + i)][reflect(x + j)], -R <= i, j <= R, R = K / 2,
// with scipy's mode='reflect' at the frame's edges (reflect_index, given).
// In remove_outlier mode the pixel keeps its value unless it differs from
// the median by more than diff in the chosen direction (choose_output,
// given). A median is one of the input values: the result is exact.
//
// Build options from the host: PIXEL (float, double or ushort), WORD (the
// type to compare in: uint for ushort, else PIXEL), K (odd, 1 to 15) and
// TILE (16). The launch is 3-D, x first, TILE × TILE work-items a group:
// group (get_group_id(0), get_group_id(1), get_group_id(2)) filters, in
// frame get_group_id(2), the tile that many tiles across and down, and its
// work-item (get_local_id(0), get_local_id(1)) the pixel that many columns
// across and rows down in it. Tiles at the right and bottom edge reach past
// the frame.
// ==== end
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable  // the remove_outlier difference is taken in double
#endif

#define R (K / 2)
#define TILE_SIDE (TILE + 2 * R)

// ==== exercise only
// Given: scipy's 'reflect' (d c b a | a b c d | d c b a), repeating for
// windows wider than the frame.
// ==== end
int reflect_index(int i, int n) {
  if (i >= 0 && i < n) return i;
  int j = i % (2 * n);
  if (j < 0) j += 2 * n;
  return j < n ? j : 2 * n - 1 - j;
}

// ==== exercise only
// Given: what is written for a pixel whose window's median is `median`.
WORD choose_output(WORD pixel, WORD median, int remove_outlier, int bright, double diff) {
  if (!remove_outlier) return median;
  const double difference = bright ? (double)pixel - (double)median : (double)median - (double)pixel;
  return difference > diff ? median : pixel;
}

// LADDER_TODO: write the kernel's body, then delete this line.
// ==== end
__kernel void median_tiles(__global const PIXEL* image, __global PIXEL* output, const int height, const int width,
                           const int remove_outlier, const int bright, const double diff) {
  // ==== yours
  // TODO: (1) the work-group copies the TILE_SIDE × TILE_SIDE pixels its
  // windows read into a __local array, reflected at the frame's edges (the
  // only place that deals with borders); (2) each work-item finds its
  // window's median from local memory; (3) writes choose_output(...), if
  // its pixel lies inside the frame. There are more pixels to load than
  // work-items. What must every work-item wait for between (1) and (2)?
  // A work-item cannot sort 49 values cheaply, nor keep them all in
  // registers: how few must it hold at once to be sure of the median?
  // ==== end
}
