#pragma once
// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// One thread per element of c: element e = (q m + i) p + j of the batch is
// c[q][i][j] = Σ_k a[q][i][k] b[q][k][j]. The grid is rounded up to whole
// blocks, so some threads lie past the end.

// Until this #define (two lines) is deleted, the cuda rung reports "not
// implemented": delete it when your kernel is written, then rebuild.
#define LADDER_TODO_CUDA_KERNEL \
  "cuda: write the kernel in exercises/batched_matmul/kernels/batched_matmul.cuh, then delete its LADDER_TODO_CUDA_KERNEL #define and rebuild"

namespace {  // internal: the solution's kernels are linked into ladder too

__global__ void batched_matmul_elements(const float* __restrict__ a, const float* __restrict__ b,
                                        float* __restrict__ c, unsigned m, unsigned n, unsigned p,
                                        unsigned elements) {
  // ==== end
  // ==== yours
  // TODO: this thread's e (blockIdx, blockDim, threadIdx), a bounds check,
  // (q, i, j) from e, the dot product of row i of a[q] and column j of b[q].
  // ==== end
}

// ==== exercise only
}  // namespace
// ==== end
