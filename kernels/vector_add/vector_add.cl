// c = a + b over n floats, the same shape as vector_add.cuh: each
// work-item adds one group of four elements with 16-byte loads and stores
// (vload4 / vstore4); the work-item whose group runs past n does the last
// n % 4 one by one, and those past the end (the global size is rounded up
// to whole work-groups) do nothing.
__kernel void vector_add(__global const float* a, __global const float* b, __global float* c, const uint n) {
  const size_t group = get_global_id(0);
  const size_t first = 4 * group;
  if (first + 3 < n) {
    vstore4(vload4(group, a) + vload4(group, b), group, c);
  } else {
    for (size_t i = first; i < n; ++i) c[i] = a[i] + b[i];
  }
}
