// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// The full 2-D convolution, zero outside the image:
//   output[y][x] = sum over (i, j) of weights[i][j] * image[y - i][x - j],
// image[r][c] = 0 outside 0 <= r < height, 0 <= c < width, for 0 <= y <
// out_height = height + K - 1 and 0 <= x < out_width = width + L - 1.
// The weights are K×L (KERNEL_ROWS × KERNEL_COLS), row-major.
//
// Build options from the host: KERNEL_ROWS (K), KERNEL_COLS (L), TILE (16)
// and WEIGHTS_SPACE (__constant, or __global for kernels larger than the
// device's constant buffer). The launch is 2-D, x first: work-group
// (get_group_id(0), get_group_id(1)) computes the TILE×TILE outputs of the
// tile that many tiles across and down, and its work-item
// (get_local_id(0), get_local_id(1)) the output that many columns across
// and rows down in it. Tiles at the right and bottom edge reach past the
// output.
// ==== end
#define TILE_ROWS (TILE + KERNEL_ROWS - 1)
#define TILE_COLS (TILE + KERNEL_COLS - 1)

// ==== exercise only
// LADDER_TODO: write the kernel's body, then delete this line.
// ==== end
__kernel void convolve_tiles(__global const float* image, const int height, const int width,
                             WEIGHTS_SPACE const float* weights, __global float* output, const int out_height,
                             const int out_width) {
  // ==== yours
  // TODO: (1) the work-group copies the TILE_ROWS × TILE_COLS image pixels
  // its outputs read into a __local array (zeros outside the image: the
  // only bounds checks); (2) each work-item sums its output from the local
  // array; (3) writes it, if it lies inside the output. Which image pixel
  // does local (0, 0) hold? There are more pixels to load than work-items.
  // What must every work-item wait for between (1) and (2)?
  // ==== end
}
