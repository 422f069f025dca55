// The cuda rung's kernel (kernels/vector_add/vector_add.cuh), for the same
// program's comparison: one float4 a thread, 256 threads a block.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void vector_add(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                           long n) {
  const long group = long{blockIdx.x} * blockDim.x + threadIdx.x;
  const long first = 4 * group;
  if (first + 3 < n) {
    const float4 x = reinterpret_cast<const float4*>(a)[group];
    const float4 y = reinterpret_cast<const float4*>(b)[group];
    reinterpret_cast<float4*>(c)[group] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  } else {
    for (long i = first; i < n; ++i) c[i] = a[i] + b[i];
  }
}

// Starts CUDA in this process first, as `ladder` has when the openmp_target
// rung runs, so libomptarget finds the primary context active.
extern "C" void cuda_start() {
  if (cudaFree(nullptr) != cudaSuccess) std::printf("cuda_start failed\n");
}

// c = a + b on device pointers, synchronised (a compute-only step).
extern "C" void cuda_vector_add(const float* a, const float* b, float* c, long n) {
  const long groups = (n + 3) / 4;
  vector_add<<<(groups + 255) / 256, 256>>>(a, b, c, n);
  if (cudaDeviceSynchronize() != cudaSuccess) std::printf("cuda_vector_add failed\n");
}
