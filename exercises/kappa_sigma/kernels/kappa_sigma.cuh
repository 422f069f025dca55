#pragma once
// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// Kappa-sigma clipping with the data on the device: the kernels of
// kappa_sigma.cl beside this file, in CUDA (read its opening comment). The
// kept values are those strictly inside one interval (lower, upper); the
// median is a radix select over order-preserving keys of the floats. The
// host launches, per iteration, clip_survey, clip_select(0), clip_refine(1),
// clip_select(1), clip_refine(2), clip_select(2); it reads only `done`, and
// once it is set every kernel must return at once. clip_start (before the
// loop) and clip_mask (after it) are given.

// Until this #define (two lines) is deleted, the cuda rung reports "not
// implemented": delete it when your kernel is written, then rebuild.
#define LADDER_TODO_CUDA_KERNEL \
  "cuda: write the kernel in exercises/kappa_sigma/kernels/kappa_sigma.cuh, then delete its LADDER_TODO_CUDA_KERNEL #define and rebuild"
// ==== end
#include <cstdint>

#include "kernels/kappa_sigma/clip_state.cuh"  // ClipState, the float keys, kClipBuckets, kClipThreads

// ==== exercise only
namespace {  // internal: the solution's kernels of the same names are linked into ladder too

// Given: one thread, before the loop.
// ==== end
static __global__ void clip_start(const float* values, unsigned n, ClipState* state) {
  state->lower = -CUDART_INF;
  state->upper = CUDART_INF;
  state->shift = values[0];  // a constant image then sums exact zeros: std 0
  state->count = n;
  state->iterations = 0;
  state->done = 0;
}

// ==== exercise only
// The grid holds as many blocks as fit on the GPU at once; threads stride
// over the n values. Writes partials[3b + 0, 1, 2] = this block's count,
// Σ(x - shift), Σ(x - shift)² (doubles) over the kept values, and adds to
// counts[0 .. kClipBuckets) the histogram of float_key(x) >> 21.
// ==== end
static __global__ void __launch_bounds__(kClipThreads)
    clip_survey(const float* __restrict__ values, unsigned n, const ClipState* state, double* partials,
                unsigned* counts) {
  // ==== yours
  // TODO: a histogram in __shared__ memory, sums reduced over the block.
  // ==== end
}

// ==== exercise only
// Pass 1: for the kept values whose top 11 key bits equal prefix[0]
// (prefix[1]), adds the histogram of key bits 20-10 to counts[0 ..
// kClipBuckets) (counts[kClipBuckets ..)); pass 2: the same with the top 22
// bits and bits 9-0. When both prefixes are equal, only the first counts.
// ==== end
static __global__ void __launch_bounds__(kClipThreads)
    clip_refine(const float* __restrict__ values, unsigned n, const ClipState* state, unsigned* counts, int pass) {
  // ==== yours
  // TODO
  // ==== end
}

// ==== exercise only
// One block of kClipThreads threads; the contract of clip_select in
// kappa_sigma.cl: pass 0 adds the `blocks` partials in a fixed order, sets
// done or mean, std, count and the two middle ranks; every pass finds the
// bucket of each middle value's rank and clears counts; after pass 2, the
// median, the pass's bounds and the kept interval, shift, iterations + 1.
// ==== end
static __global__ void __launch_bounds__(kClipThreads)
    clip_select(ClipState* state, const double* partials, unsigned blocks, unsigned* counts, int pass, double kappa) {
  // ==== yours
  // TODO: a scan over the bins' totals finds the bucket of a rank.
  // ==== end
}

// The mask of the kept values, and the statistics (count, median, mean, std,
// iterations, lower, upper; NaN for the first three when nothing was kept).
static __global__ void __launch_bounds__(kClipThreads)
    clip_mask(const float* __restrict__ values, unsigned n, const ClipState* state, std::uint8_t* mask,
              double* statistics) {
  const double lower = state->lower, upper = state->upper;
  for (unsigned i = blockIdx.x * kClipThreads + threadIdx.x; i < n; i += gridDim.x * kClipThreads) {
    const float x = values[i];
    mask[i] = x > lower && x < upper;
  }
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  const bool empty = state->count == 0;
  statistics[0] = state->count;
  statistics[1] = empty ? CUDART_NAN : state->median;
  statistics[2] = empty ? CUDART_NAN : state->mean;
  statistics[3] = empty ? CUDART_NAN : state->std;
  statistics[4] = state->iterations;
  statistics[5] = state->pass_lower;
  statistics[6] = state->pass_upper;
}

// ==== exercise only
}  // namespace
// ==== end
