// batched_matmul's OpenCL kernels, three ideas for three kinds of shape;
// the opencl rung picks by the size of c[q]. The cuda rung goes one step
// further for pairs of 64 outputs or more: whole pairs packed into a block,
// copied with cp.async (batched_matmul.cuh).
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

// batched_matmul_register_tiles: the same work-group per pair, 256
// work-items, and each work-item computes the 4 × 4 tile of c at rows
// 4 ti.., columns 4 tj.. (ti, tj < 16: up to 64 × 64) in private memory.
// Per k it reads four values of a (shared by the work-items of its row)
// and four of b (one vload4) from local memory and does 16 multiply-adds
// with them, where the kernel above reads two values for each. b[q] is
// padded with zero columns to p4, a multiple of 4; rows past m read row
// m - 1 and are not stored. `pair` holds b_at + n p4 floats, b_at = m n
// rounded up to a multiple of 4 (sized by the host: at most 32 KiB).
#define TILE 4
#define TILES_ACROSS 16
__kernel void batched_matmul_register_tiles(__global const float* restrict a, __global const float* restrict b,
                                            __global float* restrict c, const uint m, const uint n, const uint p,
                                            __local float* pair) {
  const uint q = get_group_id(0), first = get_local_id(0), step = get_local_size(0);
  const uint p4 = (p + TILE - 1) / TILE * TILE, b_at = (m * n + TILE - 1) / TILE * TILE;
  __local float* a_q = pair;         // [m][n]
  __local float* b_q = pair + b_at;  // [n][p4], zero columns past p
  for (uint e = first; e < m * n; e += step) a_q[e] = a[q * m * n + e];
  for (uint e = first; e < n * p4; e += step) {
    const uint k = e / p4, j = e % p4;
    b_q[e] = j < p ? b[(q * n + k) * p + j] : 0.0f;
  }
  barrier(CLK_LOCAL_MEM_FENCE);  // both matrices in before anyone multiplies

  const uint ti = first / TILES_ACROSS, tj = first % TILES_ACROSS;
  const uint i0 = TILE * ti, j0 = TILE * tj;
  if (i0 >= m || j0 >= p) return;  // no barrier follows
  __local const float* row0 = a_q + min(i0, m - 1) * n;
  __local const float* row1 = a_q + min(i0 + 1, m - 1) * n;
  __local const float* row2 = a_q + min(i0 + 2, m - 1) * n;
  __local const float* row3 = a_q + min(i0 + 3, m - 1) * n;
  float4 sum0 = 0.0f, sum1 = 0.0f, sum2 = 0.0f, sum3 = 0.0f;  // rows i0..i0+3 of the tile
  for (uint k = 0; k < n; ++k) {
    const float4 b_k = vload4(0, b_q + k * p4 + j0);  // b[k][j0..j0+3]
    sum0 += row0[k] * b_k;
    sum1 += row1[k] * b_k;
    sum2 += row2[k] * b_k;
    sum3 += row3[k] * b_k;
  }
  const float4 sums[TILE] = {sum0, sum1, sum2, sum3};
  for (uint r = 0; r < TILE && i0 + r < m; ++r) {
    const float tile_row[TILE] = {sums[r].x, sums[r].y, sums[r].z, sums[r].w};
    for (uint t = 0; t < TILE && j0 + t < p; ++t) c[(q * m + i0 + r) * p + j0 + t] = tile_row[t];
  }
}
