// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// counts[v] = how many of the n values equal v, for v in [0, 256).
//
// histogram_zero (given) clears the counts: the host launches it before
// every histogram_local, so the clearing is a kernel the profiling times.
// ==== end
__kernel void histogram_zero(__global uint* counts) {
  const size_t bin = get_global_id(0);
  if (bin < 256) counts[bin] = 0;
}

// ==== exercise only
// histogram_local: the host launches a few work-groups of 256 work-items
// per compute unit, so there are far fewer work-items than values: each
// work-item counts values i, i + get_global_size(0), i + 2 * get_global_size(0), ...
// (n <= 2^31, so i + stride never wraps a uint).
// LADDER_TODO: write the kernel's body, then delete this line.
// ==== end
__kernel void histogram_local(__global const uchar* values, const uint n, __global uint* counts) {
  // ==== yours
  // TODO: (1) a 256-bin histogram of this work-group in __local memory,
  // zeroed by the group's work-items; (2) count this work-item's values into
  // it; (3) add the group's bins to the global counts. Many work-items
  // update the same counter at once, in local and in global memory: what
  // makes those updates safe? And what must every work-item wait for
  // between steps (1), (2) and (3)?
  // ==== end
}
