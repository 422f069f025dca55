// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// c = a + b over n floats, one work-item per element. The global size is
// rounded up to whole work-groups, so some work-items lie past the end.
// LADDER_TODO: write the kernel's body, then delete this line.
// ==== end
__kernel void vector_add(__global const float* a, __global const float* b, __global float* c, const uint n) {
  // ==== yours
  // TODO: this work-item's index (get_global_id), a bounds check, the addition.
  // ==== end
}
