#pragma once
// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// counts[v] += how many of the n values equal v, for v in [0, 256); the host
// has zeroed counts before the launch. The grid holds only the blocks that
// fit on the GPU at once, far fewer threads than values: each thread counts
// values i, i + stride, i + 2 * stride, ... with stride = gridDim.x * blockDim.x.

// Until this #define (two lines) is deleted, the cuda rung reports "not
// implemented": delete it when your kernel is written, then rebuild.
#define LADDER_TODO_CUDA_KERNEL \
  "cuda: write the kernel in exercises/histogram/kernels/histogram_shared.cuh, then delete its LADDER_TODO_CUDA_KERNEL #define and rebuild"
// ==== end
#include <cstddef>

// ==== exercise only
namespace {  // internal: the solution's kernel of the same name is linked into ladder too

__global__ void histogram_shared(const unsigned char* __restrict__ values, std::size_t n,
                                 unsigned* __restrict__ counts) {
  // ==== end
  // ==== yours
  // TODO: (1) a 256-bin histogram of this block in __shared__ memory,
  // zeroed by the block's threads; (2) count this thread's values into it;
  // (3) add the block's bins to the global counts. Which updates can
  // collide, in shared and in global memory, and what makes them safe?
  // What must every thread wait for between the steps?
  // ==== end
}

// ==== exercise only
}  // namespace
// ==== end
