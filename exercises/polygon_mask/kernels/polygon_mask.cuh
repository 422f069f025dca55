#pragma once
// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// mask[y * width + x] = 1 when the point (x, y) is inside the polygon of n
// vertices by the even-odd rule, else 0. Vertex i is
// c_polygon_vertices[i] (.x, .y); edge i runs from vertex i to vertex
// (i + 1) % n.

// Until this #define (two lines) is deleted, the cuda rung reports "not
// implemented": delete it when your kernel is written, then rebuild.
#define LADDER_TODO_CUDA_KERNEL \
  "cuda: write the kernel in exercises/polygon_mask/kernels/polygon_mask.cuh, then delete its LADDER_TODO_CUDA_KERNEL #define and rebuild"
// ==== end
#include <cstdint>

// ==== exercise only
namespace {  // internal: the solution's kernel of the same name is linked into ladder too
// ==== end

constexpr int kMaxPolygonVertices = 4096;  // 64 KiB: all the constant memory a kernel may use

// ==== exercise only
// The vertices, copied here by the host (cudaMemcpyToSymbolAsync).
// ==== end
__constant__ double2 c_polygon_vertices[kMaxPolygonVertices];

// ==== exercise only
// The host launches rows of blocks: block b lies in row b / blocks_per_row,
// one pixel per thread from the row's start. The row's last block
// overhangs it: some threads have no pixel.
// ==== end
__global__ void polygon_mask_per_pixel(unsigned n, unsigned width, unsigned blocks_per_row,
                                       std::uint8_t* __restrict__ mask) {
  // ==== yours
  // TODO: this thread's row y and column x (blockIdx, blockDim, threadIdx),
  // a bounds check, then naive's loop over the edges for the point (x, y)
  // (bench/problems/polygon_mask/given/naive.hpp has the crossing test). nvcc fuses
  // a * b + c into one FMA, which rounds differently from the reference:
  // __dmul_rn(a, b) is a product it never fuses.
  // ==== end
}

// ==== exercise only
}  // namespace
// ==== end
