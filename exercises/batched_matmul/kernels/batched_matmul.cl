// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// One work-item per element of c: element e = (q m + i) p + j of the batch
// is c[q][i][j] = Σ_k a[q][i][k] b[q][k][j]. The global size is rounded up
// to whole work-groups, so some work-items lie past the end.
// LADDER_TODO: write the kernel's body, then delete this line.
// ==== end
__kernel void batched_matmul(__global const float* restrict a, __global const float* restrict b,
                             __global float* restrict c, const uint m, const uint n, const uint p,
                             const uint elements) {
  // ==== yours
  // TODO: this work-item's e, a bounds check, (q, i, j) from e, the dot
  // product of row i of a[q] and column j of b[q], c[e].
  // ==== end
}
