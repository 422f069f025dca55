// batched_matmul's OpenCL kernel: one work-item per element of c, as the
// slides' @guvectorize core function applied to every (i, j) of every
// pair. Element e of c is (q, i, j) with e = (q m + i) p + j; the work-items
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
