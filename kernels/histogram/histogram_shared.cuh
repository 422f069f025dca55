#pragma once
// counts[v] += how many of the n values equal v, one block's share at a
// time. Each block counts into sub-histograms in shared memory, then adds
// them to the global counts with one atomicAdd per bin.
//
// One sub-histogram per lane, bin-major: lane l's counter for bin b is
// lane_counts[b][l], which lies in shared-memory bank l. The 32 lanes of a
// warp therefore always hit 32 different banks and 32 different counters,
// whatever their values: no bank conflicts on `uniform` data, no two lanes
// on one counter on `skewed` data. Warps of a block share the table (the
// atomics serialise only same-lane, same-bin updates of different warps).
// Measured on the H100 at 2^28 values: one 256-bin table per warp instead
// took 120 us on `uniform` (random bins share banks), per-lane columns 104.
//
// Each thread reads 16 values per 16-byte load (uint4); a grid-stride loop
// over the resident grid covers any n, and the last n % 16 values are
// counted one by one. Needs 16-byte-aligned values (cudaMalloc gives 256).
// Each thread issues two loads before it counts either: at 2^24 values
// only two blocks run on an SM, and one load a thread left too few bytes
// in flight (H100: 11.94-12.06 -> 11.62-11.71 us; at 2^28, with four
// blocks an SM, 93.0-93.1 -> 93.5-94.0 us).
#include <cstddef>

constexpr int kHistogramBins = 256;
constexpr int kHistogramLanes = 32;
constexpr int kHistogramThreads = 512;
// Blocks of 512 threads that fit on one SM at once, by its thread limit:
// 2048 on A100 and H100 (4 x 32 KiB of table fits their shared memory),
// 1536 on consumer Ampere and Ada, 1024 on Turing (T4). __launch_bounds__
// then caps the registers so that many blocks really fit.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
constexpr int kHistogramBlocksPerSm = 2;
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890)
constexpr int kHistogramBlocksPerSm = 3;
#else
constexpr int kHistogramBlocksPerSm = 4;
#endif

// The four values packed in `word`, each counted in this lane's column.
__device__ __forceinline__ void count_bytes(unsigned word, unsigned* column) {
  atomicAdd(column + kHistogramLanes * (word & 0xFFu), 1u);
  atomicAdd(column + kHistogramLanes * ((word >> 8) & 0xFFu), 1u);
  atomicAdd(column + kHistogramLanes * ((word >> 16) & 0xFFu), 1u);
  atomicAdd(column + kHistogramLanes * (word >> 24), 1u);
}

__device__ __forceinline__ void count_vector(uint4 vector, unsigned* column) {
  count_bytes(vector.x, column);
  count_bytes(vector.y, column);
  count_bytes(vector.z, column);
  count_bytes(vector.w, column);
}

// next_counts, the other of the rung's two sets of counts, is zeroed here
// for the next call, so that a call is one launch: no memset before it.
// static: the cuda and cuda_nccl rungs each compile their own copy.
static __global__ void __launch_bounds__(kHistogramThreads, kHistogramBlocksPerSm)
    histogram_shared(const unsigned char* __restrict__ values, std::size_t n, unsigned* __restrict__ counts,
                     unsigned* __restrict__ next_counts) {
  __shared__ unsigned lane_counts[kHistogramBins][kHistogramLanes];  // 32 KiB
  if (blockIdx.x == 0)
    for (int bin = threadIdx.x; bin < kHistogramBins; bin += blockDim.x) next_counts[bin] = 0;
  for (int i = threadIdx.x; i < kHistogramBins * kHistogramLanes; i += blockDim.x)
    lane_counts[i / kHistogramLanes][i % kHistogramLanes] = 0;
  __syncthreads();  // the table is zero before anyone counts

  unsigned* column = &lane_counts[0][threadIdx.x % kHistogramLanes];
  const uint4* vectors = reinterpret_cast<const uint4*>(values);
  const std::size_t whole = n / 16;  // whole uint4s
  const std::size_t first = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  std::size_t g = first;
  for (; g + stride < whole; g += 2 * stride) {
    const uint4 one = vectors[g], two = vectors[g + stride];  // both loads in flight at once
    count_vector(one, column);
    count_vector(two, column);
  }
  if (g < whole) count_vector(vectors[g], column);
  for (std::size_t i = 16 * whole + first; i < n; i += stride) atomicAdd(column + kHistogramLanes * values[i], 1u);
  __syncthreads();  // every value counted before the merge reads the table

  // Thread b adds up bin b's 32 lane counters, starting at lane b % 32, so
  // the threads of a warp read 32 different banks at each step.
  for (int bin = threadIdx.x; bin < kHistogramBins; bin += blockDim.x) {
    unsigned sum = 0;
    for (int k = 0; k < kHistogramLanes; ++k) sum += lane_counts[bin][(bin + k) % kHistogramLanes];
    if (sum != 0) atomicAdd(&counts[bin], sum);
  }
}
