// batched_matmul's OpenCL kernels, the two ideas of the CUDA kernels
// (batched_matmul.cuh); the opencl rung picks by the size of c[q], as the
// cuda rung does.
//
// batched_matmul: one work-item per element of c, as the slides'
// @guvectorize core function applied to every (i, j) of every pair. Element e of c is (q, i, j) with e = (q m + i) p + j; the work-items
// of a group read neighbouring elements of b's rows and write neighbouring
// elements of c. Indices fit in 32 bits: the problem refuses arrays of
// 2^31 elements or more.
__kernel void batched_matmul(__global const float* restrict a, __global const float* restrict b,
                             __global float* restrict c, const uint m, const uint n, const uint p,
                             const uint elements) {
  const uint e = get_global_id(0);
  if (e >= elements) return;
  const uint j = e % p, i = (e / p) % m, q = e / (m * p);
  __global const float* row = a + (q * m + i) * n;  // row i of a[q]
  __global const float* column = b + q * n * p + j;  // column j of b[q], p apart
  float sum = 0.0f;
  for (uint k = 0; k < n; ++k) sum += row[k] * column[k * p];
  c[e] = sum;
}

// batched_matmul_tiles: one work-group per pair. The group loads a[q] and
// b[q] into local memory once (m n + n p floats, `pair`, sized by the host:
// at most 32 KiB), then its work-items compute the m p elements of c[q]
// from there, neighbouring work-items neighbouring j.
__kernel void batched_matmul_tiles(__global const float* restrict a, __global const float* restrict b,
                                   __global float* restrict c, const uint m, const uint n, const uint p,
                                   __local float* pair) {
  const uint q = get_group_id(0), first = get_local_id(0), step = get_local_size(0);
  __local float* a_q = pair;          // [m][n]
  __local float* b_q = pair + m * n;  // [n][p]
  for (uint e = first; e < m * n; e += step) a_q[e] = a[q * m * n + e];
  for (uint e = first; e < n * p; e += step) b_q[e] = b[q * n * p + e];
  barrier(CLK_LOCAL_MEM_FENCE);  // both matrices in before anyone multiplies
  for (uint e = first; e < m * p; e += step) {
    const uint i = e / p, j = e % p;
    float sum = 0.0f;
    for (uint k = 0; k < n; ++k) sum += a_q[i * n + k] * b_q[k * p + j];
    c[q * m * p + e] = sum;
  }
}
