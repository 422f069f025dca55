// c = a + b, one work-item per element. The global size is rounded up to
// a whole number of work-groups, so the extra work-items must do nothing.
__kernel void vector_add(__global const float* a, __global const float* b, __global float* c, const uint n) {
  const size_t i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}
