// median_filter in OpenCL C, beside median_filter.cuh. One work-group
// filters a TILE×TILE block of one frame: its work-items first copy the
// block and its K-1 halo rows and columns, reflected at the frame's edges
// as scipy's mode='reflect' (d c b a | a b c d | d c b a, repeating), into
// local memory; then each work-item selects its pixel's median from local
// memory by forgetful selection in private memory: keep K*K/2 + 2 values,
// drop the smallest and the largest (neither can be the median), take in
// the next, repeat; the median is the middle of the last three.
// PIXEL (float, double or ushort), WORD (the type compared: uint for
// ushort), K and TILE are build options, so every loop bound is known to
// the compiler. The launch is 3-D, x first: group (i, j, f) filters the
// tile i tiles across and j down in frame f.
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable  // the remove_outlier difference is taken in double
#endif

#define R (K / 2)
#define N (K * K)
#define B (N / 2 + 2)
#define TILE_SIDE (TILE + 2 * R)
#if K <= 7
#define UNROLL _Pragma("unroll")
#else
#define UNROLL
#endif

int reflect_index(int i, int n) {
  if (i >= 0 && i < n) return i;
  int j = i % (2 * n);
  if (j < 0) j += 2 * n;
  return j < n ? j : 2 * n - 1 - j;
}

__kernel void median_tiles(__global const PIXEL* image, __global PIXEL* output, const int height, const int width,
                           const int remove_outlier, const int bright, const double diff) {
  __local PIXEL tile[TILE_SIDE][TILE_SIDE];
  const ulong frame = (ulong)get_group_id(2) * (ulong)height * (ulong)width;
  const int x0 = (int)get_group_id(0) * TILE, y0 = (int)get_group_id(1) * TILE;
  const int lx = (int)get_local_id(0), ly = (int)get_local_id(1);

  for (int i = ly * TILE + lx; i < TILE_SIDE * TILE_SIDE; i += TILE * TILE) {
    const int r = i / TILE_SIDE, c = i % TILE_SIDE;
    tile[r][c] = image[frame + (ulong)reflect_index(y0 + r - R, height) * width + reflect_index(x0 + c - R, width)];
  }
  barrier(CLK_LOCAL_MEM_FENCE);  // the whole tile is in before anyone reads it

  WORD buffer[B];
  WORD median;
  if (N == 1) {
    median = tile[ly][lx];
  } else {
    // Unrolled for small K, so that every buffer index is a constant and the
    // buffer lives in registers (an indexed private array spills to memory).
    UNROLL
    for (int e = 0; e < B; ++e) buffer[e] = tile[ly + e / K][lx + e % K];
    UNROLL
    for (int e = B; e < N; ++e) {
      const int low = e - B;  // buffer[low .. B-1] is the live part
      UNROLL
      for (int i = low + 1; i < B; ++i) {  // the smallest to buffer[low]
        const WORD a = buffer[low], b = buffer[i];
        buffer[low] = min(a, b);
        buffer[i] = max(a, b);
      }
      UNROLL
      for (int i = low + 1; i < B - 1; ++i) {  // the largest to buffer[B-1]
        const WORD a = buffer[i], b = buffer[B - 1];
        buffer[i] = min(a, b);
        buffer[B - 1] = max(a, b);
      }
      buffer[B - 1] = tile[ly + e / K][lx + e % K];  // the largest out, the next value in
    }
    const WORD a = buffer[N - B], b = buffer[N - B + 1], c = buffer[N - B + 2];
    median = max(min(a, b), min(max(a, b), c));
  }

  const int y = y0 + ly, x = x0 + lx;
  if (y >= height || x >= width) return;  // edge tiles reach past the frame
  const WORD pixel = tile[ly + R][lx + R];
  WORD result = median;
  if (remove_outlier) {
    const double difference = bright ? (double)pixel - (double)median : (double)median - (double)pixel;
    result = difference > diff ? median : pixel;
  }
  output[frame + (ulong)y * width + x] = (PIXEL)result;
}
