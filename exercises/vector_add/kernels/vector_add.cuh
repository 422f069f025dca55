#pragma once
// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// c = a + b over n floats, one thread per element. The grid is rounded up
// to whole blocks, so some threads lie past the end.

// Until this #define (two lines) is deleted, the cuda rung reports "not
// implemented": delete it when your kernel is written, then rebuild.
#define LADDER_TODO_CUDA_KERNEL \
  "cuda: write the kernel in exercises/vector_add/kernels/vector_add.cuh, then delete its LADDER_TODO_CUDA_KERNEL #define and rebuild"
// ==== end
#include <cstddef>

// ==== exercise only
namespace {  // internal: the solution's kernel of the same name is linked into ladder too
// ==== end

__global__ void vector_add(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                           std::size_t n) {
  // ==== yours
  // TODO: this thread's index (blockIdx, blockDim, threadIdx), a bounds
  // check, the addition.
  // ==== end
}

// ==== exercise only
}  // namespace
// ==== end
