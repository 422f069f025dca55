#pragma once
// Kappa-sigma clipping with the data on the device: kappa_sigma.cl beside
// this file is the same in OpenCL C, kernel for kernel. The kept values are
// always those strictly inside one interval (lower, upper) — the
// intersection of every pass's bounds — so no mask or compaction is needed
// until the end: each pass reads the image and tests the interval. One
// iteration:
//   clip_survey        count, Σ(x - shift), Σ(x - shift)² of the kept values,
//                      and a histogram of the top 11 bits of their keys;
//   clip_select(0)     one block: adds the blocks' sums (in a fixed order),
//                      stops the loop if nothing was removed, else mean and
//                      std, and finds the bucket of each middle value;
//   clip_refine(1, 2)  histograms the next 11, then the last 10 key bits of
//                      the kept values whose higher bits match;
//   clip_select(1, 2)  narrows each middle value to its bucket; after the last
//                      digit the median and the new bounds are known.
// Only the `done` flag is read by the host (every few iterations); once it
// is set every kernel returns at once. clip_mask then writes the mask and
// the statistics.
#include <cstdint>

#include "kernels/kappa_sigma/clip_state.cuh"  // ClipState, the float keys, kClipBuckets, kClipThreads

// The kernels are static: the cuda and cuda_nccl rungs each compile their own copy.
static __global__ void clip_start(const float* values, unsigned n, ClipState* state) {
  state->lower = -CUDART_INF;
  state->upper = CUDART_INF;
  state->shift = values[0];  // a constant image then sums exact zeros: std 0
  state->count = n;
  state->iterations = 0;
  state->done = 0;
}

// Adds this block's shared histogram into the global one, non-zero bins only.
__device__ __forceinline__ void merge_counts(const unsigned* block_counts, unsigned* counts, int buckets) {
  for (int bin = threadIdx.x; bin < buckets; bin += kClipThreads)
    if (block_counts[bin] != 0) atomicAdd(&counts[bin], block_counts[bin]);
}

static __global__ void __launch_bounds__(kClipThreads)
    clip_survey(const float* __restrict__ values, unsigned n, const ClipState* state, double* partials,
                unsigned* counts) {
  if (state->done) return;  // the same for the whole block: no __syncthreads is skipped by some only
  __shared__ unsigned block_counts[kClipBuckets];
  __shared__ double block_sums[3][kClipThreads];
  const int id = threadIdx.x;
  for (int bin = id; bin < kClipBuckets; bin += kClipThreads) block_counts[bin] = 0;
  __syncthreads();

  const double lower = state->lower, upper = state->upper, shift = state->shift;
  unsigned kept = 0;
  double sum = 0, squares = 0;
  for (unsigned i = blockIdx.x * kClipThreads + id; i < n; i += gridDim.x * kClipThreads) {
    const float x = values[i];
    if (!(x > lower && x < upper)) continue;
    const double d = x - shift;
    ++kept, sum += d, squares += d * d;
    atomicAdd(&block_counts[float_key(x) >> 21], 1u);
  }
  block_sums[0][id] = kept, block_sums[1][id] = sum, block_sums[2][id] = squares;
  for (int stride = kClipThreads / 2; stride > 0; stride /= 2) {  // a tree, the same order every run
    __syncthreads();
    if (id < stride)
      for (int k = 0; k < 3; ++k) block_sums[k][id] += block_sums[k][id + stride];
  }
  __syncthreads();
  if (id < 3) partials[3 * blockIdx.x + id] = block_sums[id][0];
  merge_counts(block_counts, counts, kClipBuckets);
}

static __global__ void __launch_bounds__(kClipThreads)
    clip_refine(const float* __restrict__ values, unsigned n, const ClipState* state, unsigned* counts, int pass) {
  if (state->done) return;
  __shared__ unsigned block_counts[2 * kClipBuckets];  // one histogram per middle value
  const int id = threadIdx.x;
  for (int bin = id; bin < 2 * kClipBuckets; bin += kClipThreads) block_counts[bin] = 0;
  __syncthreads();

  const unsigned shift = pass == 1 ? 10 : 0, above = pass == 1 ? 21 : 10, digits = pass == 1 ? 2047 : 1023;
  const unsigned first = state->prefix[0], second = state->prefix[1];
  const double lower = state->lower, upper = state->upper;
  for (unsigned i = blockIdx.x * kClipThreads + id; i < n; i += gridDim.x * kClipThreads) {
    const float x = values[i];
    if (!(x > lower && x < upper)) continue;
    const unsigned key = float_key(x), prefix = key >> above, digit = (key >> shift) & digits;
    if (prefix == first)
      atomicAdd(&block_counts[digit], 1u);
    else if (prefix == second)
      atomicAdd(&block_counts[kClipBuckets + digit], 1u);
  }
  __syncthreads();
  merge_counts(block_counts, counts, 2 * kClipBuckets);
}

// One block of kClipThreads. Thread t owns bins [8t, 8t + 8) of each
// histogram: it sums them, a scan over the block gives the count below its
// bins, and the one whose bins hold a middle value's rank finds its bucket.
// Every thread then clears its own bins for the next pass.
static __global__ void __launch_bounds__(kClipThreads)
    clip_select(ClipState* state, const double* partials, unsigned blocks, unsigned* counts, int pass, double kappa) {
  if (state->done) return;
  __shared__ double block_sums[3][kClipThreads];
  __shared__ unsigned scan[2][kClipThreads];
  __shared__ unsigned found[2], found_rank[2];
  __shared__ bool stop;
  const int id = threadIdx.x;
  constexpr int per_thread = kClipBuckets / kClipThreads;

  if (pass == 0) {
    double sums[3] = {0, 0, 0};
    for (unsigned b = id; b < blocks; b += kClipThreads)
      for (int k = 0; k < 3; ++k) sums[k] += partials[3 * b + k];
    for (int k = 0; k < 3; ++k) block_sums[k][id] = sums[k];
    for (int stride = kClipThreads / 2; stride > 0; stride /= 2) {
      __syncthreads();
      if (id < stride)
        for (int k = 0; k < 3; ++k) block_sums[k][id] += block_sums[k][id + stride];
    }
    __syncthreads();
    if (id == 0) {
      const auto count = static_cast<unsigned>(block_sums[0][0]);
      // Nothing removed by the last pass, or nothing left: its statistics stand.
      stop = state->iterations > 0 && (count == state->count || count == 0);
      state->count = count;
      if (stop) {
        state->done = 1;
      } else {
        const double offset = block_sums[1][0] / count;
        state->mean = state->shift + offset;
        state->std = sqrt(fmax(0.0, block_sums[2][0] / count - offset * offset));
        state->rank[0] = (count - 1) / 2, state->rank[1] = count / 2;
        state->prefix[0] = state->prefix[1] = 0;
      }
    }
    __syncthreads();  // also makes thread 0's writes to the state visible to the block
    if (stop) {
      for (int bin = id * per_thread; bin < (id + 1) * per_thread; ++bin) counts[bin] = 0;
      return;
    }
  }

  // One histogram when both middle values share their prefix (always after
  // the survey, which keeps one), else one each. The state is read before
  // anyone writes it.
  const unsigned digit_bits = pass == 2 ? 10 : 11;
  const unsigned prefixes[2] = {state->prefix[0], state->prefix[1]}, ranks[2] = {state->rank[0], state->rank[1]};
  const bool shared = pass == 0 || prefixes[0] == prefixes[1];
  for (int t = 0; t < 2; ++t) {
    const unsigned* bins = counts + (shared ? 0 : t * kClipBuckets) + id * per_thread;
    unsigned total = 0;
    for (int b = 0; b < per_thread; ++b) total += bins[b];
    scan[t][id] = total;
  }
  for (int step = 1; step < kClipThreads; step *= 2) {  // inclusive scan (Hillis-Steele)
    __syncthreads();
    unsigned add[2] = {0, 0};
    if (id >= step) add[0] = scan[0][id - step], add[1] = scan[1][id - step];
    __syncthreads();
    scan[0][id] += add[0], scan[1][id] += add[1];
  }
  __syncthreads();
  for (int t = 0; t < 2; ++t) {
    const unsigned* bins = counts + (shared ? 0 : t * kClipBuckets) + id * per_thread;
    unsigned below = id == 0 ? 0 : scan[t][id - 1];
    if (ranks[t] < below || ranks[t] >= scan[t][id]) continue;
    for (int b = 0; b < per_thread; below += bins[b], ++b) {
      if (ranks[t] < below + bins[b]) {
        found[t] = (prefixes[t] << digit_bits) | (id * per_thread + b);
        found_rank[t] = ranks[t] - below;
        break;
      }
    }
  }
  __syncthreads();
  for (int bin = id * per_thread; bin < (id + 1) * per_thread; ++bin) counts[bin] = counts[kClipBuckets + bin] = 0;
  if (id != 0) return;
  state->prefix[0] = found[0], state->prefix[1] = found[1];
  state->rank[0] = found_rank[0], state->rank[1] = found_rank[1];
  if (pass < 2) return;
  // Both middle values are known: the median (their mean in double; the same
  // value twice for an odd count), this pass's bounds, the kept interval.
  state->median = (static_cast<double>(key_float(found[0])) + static_cast<double>(key_float(found[1]))) / 2;
  state->pass_lower = state->median - kappa * state->std;
  state->pass_upper = state->median + kappa * state->std;
  state->lower = fmax(state->lower, state->pass_lower);
  state->upper = fmin(state->upper, state->pass_upper);
  state->shift = state->median;
  state->iterations += 1;
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
