// The full 2-D convolution, zero outside the image:
//   output[y][x] = sum over (a, b) of weights[K-1-a][L-1-b] * padded[y + a][x + b],
// where padded is the image with K-1 zero rows and L-1 zero columns on every
// side (padded[r][c] = image[r - (K-1)][c - (L-1)], 0 outside the image).
//
// One work-group computes one TILE×TILE block of outputs. Its work-items
// first copy the padded region that the block reads, (TILE+K-1)×(TILE+L-1)
// pixels, into local memory, so that each pixel comes from global memory
// once, not K·L times; then each work-item computes one output from local
// memory. The weights are in __constant memory: all work-items read the
// same weight at the same time, which the constant cache broadcasts.
// KERNEL_ROWS (K), KERNEL_COLS (L), TILE and WEIGHTS_SPACE (__constant, or
// __global for kernels larger than the constant buffer) are build options.
//
// The launch is 2-D, x first: group (i, j) computes the tile i tiles
// across and j down, and its work-item (lx, ly) the output lx columns across
// and ly rows down in it.
#define TILE_ROWS (TILE + KERNEL_ROWS - 1)
#define TILE_COLS (TILE + KERNEL_COLS - 1)

__kernel void convolve_tiles(__global const float* image, const int height, const int width,
                             WEIGHTS_SPACE const float* weights, __global float* output, const int out_height,
                             const int out_width) {
  __local float tile[TILE_ROWS][TILE_COLS];
  const int x0 = (int)get_group_id(0) * TILE, y0 = (int)get_group_id(1) * TILE;
  const int lx = (int)get_local_id(0), ly = (int)get_local_id(1);

  // tile[r][c] = padded[y0 + r][x0 + c]: the bounds check happens here, once per pixel loaded.
  for (int i = ly * TILE + lx; i < TILE_ROWS * TILE_COLS; i += TILE * TILE) {
    const int r = i / TILE_COLS, c = i % TILE_COLS;
    const int iy = y0 + r - (KERNEL_ROWS - 1), ix = x0 + c - (KERNEL_COLS - 1);
    tile[r][c] = (iy >= 0 && iy < height && ix >= 0 && ix < width) ? image[iy * width + ix] : 0.0f;
  }
  barrier(CLK_LOCAL_MEM_FENCE);  // the whole tile is in before anyone reads it

  float sum = 0.0f;
  for (int a = 0; a < KERNEL_ROWS; ++a)
    for (int b = 0; b < KERNEL_COLS; ++b)  // the weights read backwards: a convolution, not a correlation
      sum += weights[(KERNEL_ROWS - 1 - a) * KERNEL_COLS + (KERNEL_COLS - 1 - b)] * tile[ly + a][lx + b];

  const int y = y0 + ly, x = x0 + lx;
  if (y < out_height && x < out_width) output[y * out_width + x] = sum;  // edge tiles reach past the output
}
