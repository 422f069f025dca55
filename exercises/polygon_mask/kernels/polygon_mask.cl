// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// mask[y * width + x] = 1 when the point (x, y) is inside the polygon of n
// vertices by the even-odd rule, else 0. Vertex i is vertices[i] (.x, .y);
// edge i runs from vertex i to vertex (i + 1) % n.
// ==== end
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// No fused multiply-adds: the crossing test must round exactly as the
// reference's does, or a pixel next to an edge could flip.
#pragma OPENCL FP_CONTRACT OFF

// ==== exercise only
// The host launches rows of work-groups: group g lies in row
// g / groups_per_row, and its work-items take PIXELS_PER_ITEM (here 1)
// neighbouring pixels each, from the row's start. The row's last group
// overhangs it: some work-items have no pixel.
// ==== end
#ifndef PIXELS_PER_ITEM
// ==== exercise only
#define PIXELS_PER_ITEM 1  // the host passes its own with -D
// ==== end
#endif

// ==== exercise only
// LADDER_TODO: write the kernel's body, then delete this line.
// ==== end
__kernel void polygon_mask_per_pixel(__constant double2* vertices, const uint n, const uint width,
                                     const uint groups_per_row, __global uchar* mask) {
  // ==== yours
  // TODO: this work-item's row y and column x (get_group_id, get_local_id,
  // get_local_size), a bounds check, then naive's loop over the edges for
  // the point (x, y) (bench/problems/polygon_mask/given/naive.hpp has the crossing
  // test: use the same expression, in double). All work-items of a group
  // read the same vertex at the same time: what does constant memory do
  // with that?
  // ==== end
}
