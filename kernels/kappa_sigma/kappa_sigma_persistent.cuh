#pragma once
// Kappa-sigma clipping in one kernel launch: the passes of kappa_sigma.cuh
// (survey, then two refines of the median's digits, per iteration) inside a
// loop that runs on the device from the first pass to the mask. Between two
// passes every block waits at a grid-wide barrier (cooperative groups'
// grid.sync(), which needs every block resident at once: a cooperative
// launch of at most as many blocks as fit).
//
// What replaces the single-block clip_select kernels: *every* block reads
// the grid's histogram and the blocks' sums after the barrier and works out
// the same next step on its own, into its own copy of the state in shared
// memory. All blocks add the same numbers in the same order, so all copies
// hold the same bits, every block takes the same branch, and no block waits
// for one block to publish the state (that would be a second barrier per
// pass). Nothing goes back to the host until the loop has ended.
//
// The histograms are reused in turn, three of them: pass k counts into
// buffer k % 3 while the grid clears buffer (k + 1) % 3, which every block
// last read before the barrier that ended pass k - 1.
//
// From the second iteration on, the refines read only values the survey
// set aside. They count the values whose top digit is the median's, and the
// median moves little from one iteration to the next: at most by half the
// values the next bounds clip. So each survey (from the second on) also
// sets aside, in the block's own slice of `candidates`, the kept values
// whose top digit lies in a band around the last median's: the digits of
// the values ranked up to n/32 either side of it (whole buckets). If the
// new median's top digit falls in the band, every value the refines would
// count is among them, and the two refines read the ~6 % set aside instead
// of the whole image; if not (the median moved further), they read the
// image as before. The counts, and so every result, are the same either way.
//
// And where the median's top-digit bucket holds few values (at most
// kGatherCapacity: about 2000 of the 2048² sky's 4 million), one pass
// gathers them from every block into one small array instead of the two
// refines, and after one barrier every block finds the two lower digits
// in its shared memory, with the same counts and the same select: an
// iteration is two grid-wide barriers instead of three.
//
// Last, the surveys themselves stop reading the whole image once the
// bounds settle. The bounds only ever narrow, so a survey can split the
// kept values into a core, the values within kCoreWidth × κ × std of the
// last median (κ × std is the bounds' half-width; κ × a robust std from the
// quartiles where that is less), and the edges, the rest.
// While the next bounds still hold the whole core, every core value is
// still kept: its count, sums and histogram are the same as before, and
// only the edges (about 4 % of a modelled sky) need reading again. Such a survey
// reads the block's edges, adds the core's totals and, in the select, the
// core's histogram. Where the bounds cut into the core, the survey reads the
// whole image again and splits it anew around the new median.
//
// And where the median's gathered bucket lies in the core, its kept values
// cannot change while the core holds, so every block keeps them in shared
// memory (the window). An iteration whose survey read only the edges then
// finds the median's rank in the window from the kept edges below the core
// (a fourth partial sum) and selects the two lower digits among the
// window's keys: no select of the top digit, no gather, one grid barrier.
#include <cooperative_groups.h>

#include <cstddef>
#include <cstdint>

#include "kernels/kappa_sigma/clip_state.cuh"  // ClipState, float_key, key_float, kClipBuckets

constexpr int kPersistentThreads = 1024;  // 1024 threads a block: a 2048-bin histogram is 2 bins per thread
constexpr int kPersistentWarps = kPersistentThreads / 32;
constexpr int kPersistentHistogram = 2 * kClipBuckets;  // words per buffer: one histogram per middle value
constexpr unsigned kGatherCapacity = 4096;  // keys of the median's bucket gathered into shared memory (16 KiB)
constexpr double kCoreWidth = 2.0 / 3;      // the core's half-width, as a fraction of the bounds' (above)
constexpr int kPartials = 4;                // a block's partial totals: count, sum, squares, kept edges below the core

// A block's shared memory.
struct PersistentShared {
  unsigned counts[kPersistentHistogram];  // this block's histograms of the pass
  double warp_sums[2][kPersistentWarps];
  unsigned warp_counts[2][kPersistentWarps];
  double warp_partials[kPartials][kPersistentWarps];
  double totals[kPartials];
  unsigned warp_scan[2][kPersistentWarps];
  unsigned found[2], found_rank[2], found_count[2];
  ClipState state;  // this block's copy of the loop's state (`done`: 0 or 1)
  // The values set aside (above): the band of top digits the next survey
  // that reads the image keeps (none in the first iteration, when there is
  // no median yet: ~0u to ~0u), the band the values set aside now hold, the
  // band after the next survey, and how many values this block has set aside.
  unsigned band_low, band_high, held_band_low, held_band_high, next_band_low, next_band_high;
  unsigned refine_candidates;  // 1: the refines read this block's set-aside values
  unsigned block_candidates;
  // The core and the edges (above): 1 once there is a core; its bounds
  // (inclusive); 1 where this iteration's survey reads only the edges; the
  // block's count, sum and sum of squares of its core values, taken with
  // shift core_shift; how many edge values this block holds; the shift of
  // the survey's sums; how many times the image has been split (the core's
  // histogram is ClipScratch::core_histogram(splits)).
  unsigned has_core, edge_survey, block_edges, splits;
  float core_low, core_high;
  double core_totals[3], core_shift, sums_shift;
  // The window (keep_window): 1 while `gathered` holds it; its bucket; how
  // many keys; the split it belongs to; the core values below its bucket.
  // And, from the last survey and select: the kept edges below the core,
  // the kept values below the median's bucket.
  unsigned window, window_bucket, window_count, window_split, window_core_below;
  unsigned lower_edges, median_bucket, below_bucket, window_hit;
  // The buckets of the quartiles (select_digit<0>), and κ × the std they
  // suggest: the core's half-width is kCoreWidth × the smaller of this and
  // the bounds' half-width.
  unsigned quartile_bucket[2];
  double robust_reach;
  // The median's bucket: 1 when it is gathered (above); the keys, this
  // block's own while the pass runs, then every block's; this block's count
  // and where its keys go in the grid's array.
  unsigned gather;
  unsigned gathered[kGatherCapacity];
  unsigned block_gathered, gathered_at;
};

// Device memory for the values set aside, gathered and split off as
// edges, allocated by the rung. Block b's slices of `candidates` and `edges`
// start at b × candidates_per_block (worked out where they are needed: the
// kernel's parameters are read from constant memory, so a slice takes no
// register in the survey's loop). `gathered` holds kGatherCapacity keys,
// `gathered_counts` three counts, one per iteration in turn: iteration i
// counts into i % 3 while the survey clears (i + 1) % 3, whose last readers
// passed two barriers ago. `core_histograms` holds two histograms of the
// core's top digits: split k counts into k % 2 while it clears (k + 1) % 2,
// last read before the barrier that ended the iteration before it.
struct ClipScratch {
  float* candidates;
  float* edges;
  std::size_t candidates_per_block;
  unsigned* gathered;
  unsigned* gathered_counts;
  unsigned* core_histograms;
  __device__ float* slice() const { return candidates + blockIdx.x * candidates_per_block; }
  __device__ float* edge_slice() const { return edges + blockIdx.x * candidates_per_block; }
  __device__ unsigned* core_histogram(unsigned split) const { return core_histograms + (split % 2) * kClipBuckets; }
};

// How many values the band keeps either side of the median's rank: the next
// iteration's median is among them while its bounds clip under n/16.
__device__ __forceinline__ unsigned band_ranks(unsigned count) { return count / 32; }

// A warp's total of a count, in every lane: one instruction (REDUX) from
// compute capability 8.0 on, a butterfly of shuffles before it.
__device__ __forceinline__ unsigned warp_count(unsigned x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_add_sync(0xFFFFFFFFu, x);
#else
  for (int offset = 16; offset > 0; offset /= 2) x += __shfl_xor_sync(0xFFFFFFFFu, x, offset);
  return x;
#endif
}

// The block's totals of two counts and two sums per thread, in s.totals for
// every thread (counts as doubles): within each warp, then warp 0 over the
// warps' totals. The counts take one warp_count each; the sums go
// down a tree of shuffles, two a step for a double (with 32 warps an SM
// that is the shuffle unit's whole load, so no more of them than needed).
// The order of the additions is fixed, so the bits are the same every run.
__device__ void block_sums(PersistentShared& s, unsigned count, double sum, double squares, unsigned other) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  double v[2] = {sum, squares};
  unsigned c[2] = {warp_count(count), warp_count(other)};
  for (int offset = 16; offset > 0; offset /= 2)
    for (double& x : v) x += __shfl_down_sync(0xFFFFFFFFu, x, offset);
  if (lane == 0) {
    s.warp_sums[0][warp] = v[0], s.warp_sums[1][warp] = v[1];
    s.warp_counts[0][warp] = c[0], s.warp_counts[1][warp] = c[1];
  }
  __syncthreads();
  if (warp == 0) {
    v[0] = s.warp_sums[0][lane], v[1] = s.warp_sums[1][lane];
    c[0] = warp_count(s.warp_counts[0][lane]), c[1] = warp_count(s.warp_counts[1][lane]);
    for (int offset = 16; offset > 0; offset /= 2)
      for (double& x : v) x += __shfl_down_sync(0xFFFFFFFFu, x, offset);
    if (lane == 0) s.totals[0] = c[0], s.totals[1] = v[0], s.totals[2] = v[1], s.totals[3] = c[1];
  }
  __syncthreads();
}

// Grid-stride over the n values, four at a time where a float4 covers them
// (cudaMalloc aligns to 256 bytes), two float4 loads in flight per thread
// (the image sits in L2 after the first pass, and one load at a time would
// leave each thread waiting out the L2's latency); the last n % 4 one by one.
template <typename Visit>
__device__ __forceinline__ void for_each_value(const float* __restrict__ values, unsigned n, Visit&& visit) {
  const unsigned first = blockIdx.x * kPersistentThreads + threadIdx.x, stride = gridDim.x * kPersistentThreads;
  const float4* quads = reinterpret_cast<const float4*>(values);
  const unsigned whole = n / 4;
  unsigned q = first;
  for (; q + stride < whole; q += 2 * stride) {
    const float4 a = quads[q], b = quads[q + stride];
    visit(a.x), visit(a.y), visit(a.z), visit(a.w);
    visit(b.x), visit(b.y), visit(b.z), visit(b.w);
  }
  if (q < whole) {
    const float4 a = quads[q];
    visit(a.x), visit(a.y), visit(a.z), visit(a.w);
  }
  for (unsigned i = 4 * whole + first; i < n; i += stride) visit(values[i]);
}

// The kept interval as float bounds. For a float x, x > lower exactly when
// x > lower rounded down to a float, and x < upper exactly when x < upper
// rounded up: no float lies between a double and its rounding. One float
// compare per bound, instead of a conversion and a double compare.
__device__ __forceinline__ float bound_below(double lower) { return __double2float_rd(lower); }
__device__ __forceinline__ float bound_above(double upper) { return __double2float_ru(upper); }

// Clears one histogram buffer, shared out over the whole grid.
__device__ void clear_buffer(unsigned* buffer, unsigned words = kPersistentHistogram) {
  for (unsigned i = blockIdx.x * kPersistentThreads + threadIdx.x; i < words; i += gridDim.x * kPersistentThreads)
    buffer[i] = 0;
}

// Adds this block's histograms into the grid's, non-zero bins only.
__device__ void merge_block_counts(const PersistentShared& s, unsigned* buffer, int bins) {
  __syncthreads();  // every value counted
  for (int bin = threadIdx.x; bin < bins; bin += kPersistentThreads)
    if (s.counts[bin] != 0) atomicAdd(&buffer[bin], s.counts[bin]);
}

// Puts x into the block's slice of set-aside values (a shared atomic for its
// place: the values are ~6 % of those visited, and the histogram already
// takes one shared atomic for each).
__device__ __forceinline__ void set_aside(float x, PersistentShared& s, const ClipScratch& scratch) {
  scratch.slice()[atomicAdd(&s.block_candidates, 1u)] = x;
}

// Splits x off as an edge value: into the block's slice of `edges`, as
// set_aside does.
__device__ __forceinline__ void split_off(float x, PersistentShared& s, const ClipScratch& scratch) {
  scratch.edge_slice()[atomicAdd(&s.block_edges, 1u)] = x;
}

// Pass 0 of an iteration, over the whole image: count, sums of x - shift
// and (x - shift)², and the histogram of the top 11 key bits of the kept
// values; from the second iteration on, the kept values in the band set
// aside for the refines, and the kept values outside the new core split
// off as edges. The core's totals and histogram are the whole's less the
// edges' (read back from the block's slice after the pass).
__device__ void survey_image(const float* __restrict__ values, unsigned n, PersistentShared& s, double* partials,
                             unsigned* buffer, const ClipScratch& scratch) {
  for (int bin = threadIdx.x; bin < kPersistentHistogram; bin += kPersistentThreads) s.counts[bin] = 0;
  if (threadIdx.x == 0) {
    s.block_candidates = 0, s.block_edges = 0;
    s.held_band_low = s.band_low, s.held_band_high = s.band_high;
  }
  if (s.has_core) clear_buffer(scratch.core_histogram(s.splits + 1), kClipBuckets);
  __syncthreads();
  const float lower = bound_below(s.state.lower), upper = bound_above(s.state.upper);
  const double shift = s.state.shift;
  const unsigned band_low = s.band_low, band_width = s.band_high - s.band_low;
  // No core yet (the first iteration): -inf to inf, nothing split off.
  const float core_low = s.core_low, core_high = s.core_high;
  unsigned kept = 0;  // a count: one register, not a double's two
  double sum = 0, squares = 0;
  for_each_value(values, n, [&](float x) {
    if (!(x > lower && x < upper)) return;
    const double d = x - shift;
    kept += 1, sum += d, squares += d * d;
    const unsigned bucket = float_key(x) >> 21;
    atomicAdd(&s.counts[bucket], 1u);
    if (bucket - band_low <= band_width) set_aside(x, s, scratch);  // below the band, the difference wraps: > width
    if (!(x >= core_low && x <= core_high)) split_off(x, s, scratch);
  });
  block_sums(s, kept, sum, squares, 0);
  const double whole[3] = {s.totals[0], s.totals[1], s.totals[2]};
  double* partial = partials + kPartials * blockIdx.x;
  if (!s.has_core) {
    if (threadIdx.x < kPartials) partial[threadIdx.x] = s.totals[threadIdx.x];
    merge_block_counts(s, buffer, kClipBuckets);
    return;
  }
  // The edges' totals and histogram (the second half of s.counts), and how
  // many lie below the core.
  unsigned edge_kept = 0, edge_lower = 0;
  double edge_sum = 0, edge_squares = 0;
  const float* edges = scratch.edge_slice();
  for (unsigned i = threadIdx.x; i < s.block_edges; i += kPersistentThreads) {
    const double d = edges[i] - shift;
    edge_kept += 1, edge_sum += d, edge_squares += d * d, edge_lower += edges[i] < core_low;
    atomicAdd(&s.counts[kClipBuckets + (float_key(edges[i]) >> 21)], 1u);
  }
  block_sums(s, edge_kept, edge_sum, edge_squares, edge_lower);  // its barriers also end the histogram's atomics
  if (threadIdx.x < 3) partial[threadIdx.x] = whole[threadIdx.x];
  if (threadIdx.x == 3) partial[3] = s.totals[3];
  if (threadIdx.x < 3) s.core_totals[threadIdx.x] = whole[threadIdx.x] - s.totals[threadIdx.x];
  if (threadIdx.x == 0) s.core_shift = shift;
  unsigned* core = scratch.core_histogram(s.splits);
  for (int bin = threadIdx.x; bin < kClipBuckets; bin += kPersistentThreads) {
    const unsigned all = s.counts[bin], outside = s.counts[kClipBuckets + bin];
    if (all != 0) atomicAdd(&buffer[bin], all);
    if (all != outside) atomicAdd(&core[bin], all - outside);
  }
}

// Pass 0 of an iteration while the bounds hold the whole core: the same
// count, sums and histogram, from the block's edges and the core's totals
// (the select adds the core's histogram).
__device__ void survey_edges(PersistentShared& s, double* partials, unsigned* buffer, const ClipScratch& scratch) {
  for (int bin = threadIdx.x; bin < kClipBuckets; bin += kPersistentThreads) s.counts[bin] = 0;
  __syncthreads();
  const float lower = bound_below(s.state.lower), upper = bound_above(s.state.upper);
  const double shift = s.core_shift;
  const float core_low = s.core_low;
  unsigned kept = 0, below_core = 0;
  double sum = 0, squares = 0;
  const float* edges = scratch.edge_slice();
  for (unsigned i = threadIdx.x; i < s.block_edges; i += kPersistentThreads) {
    const float x = edges[i];
    if (!(x > lower && x < upper)) continue;
    const double d = x - shift;
    kept += 1, sum += d, squares += d * d, below_core += x < core_low;
    atomicAdd(&s.counts[float_key(x) >> 21], 1u);
  }
  block_sums(s, kept, sum, squares, below_core);
  double* partial = partials + kPartials * blockIdx.x;
  if (threadIdx.x < 3) partial[threadIdx.x] = s.core_totals[threadIdx.x] + s.totals[threadIdx.x];
  if (threadIdx.x == 3) partial[3] = s.totals[3];
  merge_block_counts(s, buffer, kClipBuckets);
}

// Pass 0: from the edges where the bounds still hold the core, else from
// the image, split anew (from the second iteration on) around the last
// median: the core within kCoreWidth of the last bounds' half-width.
__device__ void survey(const float* __restrict__ values, unsigned n, PersistentShared& s, double* partials,
                       unsigned* buffer, const ClipScratch& scratch) {
  if (threadIdx.x == 0) {
    const ClipState& state = s.state;
    // Float core bounds against double kept bounds: every core value x has
    // lower < core_low <= x <= core_high < upper.
    s.edge_survey = s.has_core && s.core_low > state.lower && s.core_high < state.upper;
    if (!s.edge_survey && state.iterations > 0) {
      const double reach = kCoreWidth * fmin((state.pass_upper - state.pass_lower) / 2, s.robust_reach);
      s.core_low = __double2float_ru(state.median - reach), s.core_high = __double2float_rd(state.median + reach);
      s.has_core = 1, s.splits += 1;
    }
    s.sums_shift = s.edge_survey ? s.core_shift : state.shift;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) scratch.gathered_counts[(s.state.iterations + 1) % 3] = 0;
  __syncthreads();
  if (s.edge_survey)
    survey_edges(s, partials, buffer, scratch);
  else
    survey_image(values, n, s, partials, buffer, scratch);
}

// What a refine counts: the next 11, then the last 10 key bits of the
// keys whose higher bits are a middle value's prefix (one histogram per
// middle value; the first only, when they share it).
struct DigitCount {
  unsigned shift, above, digits, first, second;
  __device__ DigitCount(int pass, const ClipState& state)
      : shift(pass == 1 ? 10 : 0),
        above(pass == 1 ? 21 : 10),
        digits(pass == 1 ? 2047 : 1023),
        first(state.prefix[0]),
        second(state.prefix[1]) {}
  __device__ void operator()(unsigned key, unsigned* counts) const {
    const unsigned prefix = key >> above, digit = (key >> shift) & digits;
    if (prefix == first)
      atomicAdd(&counts[digit], 1u);
    else if (prefix == second)
      atomicAdd(&counts[kClipBuckets + digit], 1u);
  }
};

// The kept values a refine or a gather visits: this block's set-aside
// values where the survey's band holds the median, else the whole image.
template <typename Visit>
__device__ void for_each_kept_value(const float* __restrict__ values, unsigned n, const PersistentShared& s,
                                    const ClipScratch& scratch, Visit&& visit) {
  const float lower = bound_below(s.state.lower), upper = bound_above(s.state.upper);
  auto kept = [&](float x) {
    if (x > lower && x < upper) visit(float_key(x));
  };
  if (s.refine_candidates) {
    // Written by this block in this iteration's survey: plain loads (not
    // the read-only path, which may hold an older iteration's values).
    const float* slice = scratch.slice();
    for (unsigned i = threadIdx.x; i < s.block_candidates; i += kPersistentThreads) kept(slice[i]);
  } else {
    for_each_value(values, n, kept);
  }
}

// Passes 1 and 2: the histograms of the next digit, into the grid's buffer.
__device__ void refine(const float* __restrict__ values, unsigned n, int pass, PersistentShared& s, unsigned* buffer,
                       const ClipScratch& scratch) {
  for (int bin = threadIdx.x; bin < kPersistentHistogram; bin += kPersistentThreads) s.counts[bin] = 0;
  __syncthreads();
  const DigitCount count(pass, s.state);
  for_each_kept_value(values, n, s, scratch, [&](unsigned key) { count(key, s.counts); });
  merge_block_counts(s, buffer, kPersistentHistogram);
}

// Instead of the refines, where the median's bucket is small: the kept keys
// whose top digit is a middle value's, from every block into
// scratch.gathered (each block stages its own in shared memory, then takes
// its place with one atomic).
__device__ void gather(const float* __restrict__ values, unsigned n, PersistentShared& s, const ClipScratch& scratch) {
  if (threadIdx.x == 0) s.block_gathered = 0;
  __syncthreads();
  const unsigned first = s.state.prefix[0], second = s.state.prefix[1];
  for_each_kept_value(values, n, s, scratch, [&](unsigned key) {
    if (key >> 21 == first || key >> 21 == second) s.gathered[atomicAdd(&s.block_gathered, 1u)] = key;
  });
  __syncthreads();
  if (threadIdx.x == 0) s.gathered_at = atomicAdd(&scratch.gathered_counts[s.state.iterations % 3], s.block_gathered);
  __syncthreads();
  for (unsigned i = threadIdx.x; i < s.block_gathered; i += kPersistentThreads)
    scratch.gathered[s.gathered_at + i] = s.gathered[i];
}

// After a survey: the grid's count and sums (the blocks' partial sums added
// in block order, by every block alike). Returns true when the loop ends:
// nothing removed by the last pass, or nothing left.
// Thread t reads block t's partials (and t + 1024's ...: one load each on
// today's GPUs), only the warps that hold blocks add theirs up by shuffles
// (a few hundred partials: the other warps would only add zeros), and
// thread 0 adds the warps' totals in order.
__device__ bool add_up_survey(const double* partials, PersistentShared& s) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int warps = int(min(gridDim.x, unsigned(kPersistentThreads)) + 31) / 32;
  if (warp < warps) {
    double v[kPartials] = {0, 0, 0, 0};
    for (unsigned b = threadIdx.x; b < gridDim.x; b += kPersistentThreads)
      for (int k = 0; k < kPartials; ++k) v[k] += partials[kPartials * b + k];
    for (int offset = 16; offset > 0; offset /= 2)
      for (double& x : v) x += __shfl_down_sync(0xFFFFFFFFu, x, offset);
    if (lane == 0)
      for (int k = 0; k < kPartials; ++k) s.warp_partials[k][warp] = v[k];
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    double sums[kPartials] = {0, 0, 0, 0};
    for (int w = 0; w < warps; ++w)
      for (int k = 0; k < kPartials; ++k) sums[k] += s.warp_partials[k][w];
    ClipState& state = s.state;
    const auto count = static_cast<unsigned>(sums[0]);
    s.lower_edges = static_cast<unsigned>(sums[3]);
    state.done = state.iterations > 0 && (count == state.count || count == 0) ? 1 : 0;
    state.count = count;
    if (!state.done) {
      const double offset = sums[1] / count;
      state.mean = s.sums_shift + offset;
      state.std = sqrt(fmax(0.0, sums[2] / count - offset * offset));
      state.rank[0] = (count - 1) / 2, state.rank[1] = count / 2;
      state.prefix[0] = state.prefix[1] = 0;
    }
  }
  __syncthreads();
  return s.state.done != 0;
}

// The end of an iteration, once the median is known: the new bounds.
__device__ void finish_iteration(ClipState& state, double median, double kappa) {
  state.median = median;
  state.pass_lower = state.median - kappa * state.std;
  state.pass_upper = state.median + kappa * state.std;
  state.lower = fmax(state.lower, state.pass_lower);
  state.upper = fmin(state.upper, state.pass_upper);
  state.shift = state.median;
  state.iterations += 1;
}

// Narrows each middle value to the bucket of this pass's digit that holds
// its rank (clip_select, in every block): thread t owns bins 2t and 2t + 1,
// a block-wide scan gives the count below them. After the last digit: the
// median and the new bounds. After a survey of the edges, `core` is the
// core's histogram, added to the edges'.
template <int pass>
__device__ void select_digit(const unsigned* buffer, double kappa, PersistentShared& s,
                             const unsigned* core = nullptr) {
  constexpr int per_thread = kClipBuckets / kPersistentThreads;
  const int id = threadIdx.x, lane = id % 32, warp = id / 32;
  const unsigned digit_bits = pass == 2 ? 10 : 11;
  const unsigned prefixes[2] = {s.state.prefix[0], s.state.prefix[1]};
  const unsigned ranks[2] = {s.state.rank[0], s.state.rank[1]};
  const bool shared = pass == 0 || prefixes[0] == prefixes[1];
  unsigned bins[2][per_thread], inclusive[2];
  for (int t = 0; t < 2; ++t) {
    const unsigned* histogram = buffer + (shared ? 0 : t * kClipBuckets) + id * per_thread;
    inclusive[t] = 0;
    for (int b = 0; b < per_thread; ++b)
      bins[t][b] = histogram[b] + (core ? core[id * per_thread + b] : 0u), inclusive[t] += bins[t][b];
  }
  // Inclusive scan over the block: within each warp, then the warps' totals.
  for (int offset = 1; offset < 32; offset *= 2)
    for (unsigned& x : inclusive) {
      const unsigned below = __shfl_up_sync(0xFFFFFFFFu, x, offset);
      if (lane >= offset) x += below;
    }
  if (lane == 31) s.warp_scan[0][warp] = inclusive[0], s.warp_scan[1][warp] = inclusive[1];
  __syncthreads();
  if (warp == 0) {
    unsigned totals[2] = {s.warp_scan[0][lane], s.warp_scan[1][lane]};
    for (int offset = 1; offset < 32; offset *= 2)
      for (unsigned& x : totals) {
        const unsigned below = __shfl_up_sync(0xFFFFFFFFu, x, offset);
        if (lane >= offset) x += below;
      }
    s.warp_scan[0][lane] = totals[0], s.warp_scan[1][lane] = totals[1];
  }
  __syncthreads();
  for (int t = 0; t < 2; ++t) {
    if (warp > 0) inclusive[t] += s.warp_scan[t][warp - 1];
    unsigned below = inclusive[t];
    for (int b = 0; b < per_thread; ++b) below -= bins[t][b];
    if (ranks[t] < below || ranks[t] >= inclusive[t]) continue;
    for (int b = 0; b < per_thread; below += bins[t][b], ++b) {
      if (ranks[t] < below + bins[t][b]) {
        s.found[t] = (prefixes[t] << digit_bits) | (id * per_thread + b);
        s.found_rank[t] = ranks[t] - below;
        s.found_count[t] = bins[t][b];
        break;
      }
    }
  }
  if (pass == 0) {
    // The next survey's band: the top digits of the values ranked
    // band_ranks(count) below the lower middle value and above the upper.
    // And the quartiles' top digits, for robust_reach.
    const unsigned reach = band_ranks(s.state.count), count = s.state.count;
    const unsigned edges[2] = {ranks[0] > reach ? ranks[0] - reach : 0u,
                               ranks[1] + reach < count ? ranks[1] + reach : count - 1};
    const unsigned quartiles[2] = {count / 4, count - 1 - count / 4};
    unsigned below = inclusive[0];
    for (int b = 0; b < per_thread; ++b) below -= bins[0][b];
    for (int b = 0; b < per_thread; below += bins[0][b], ++b) {
      const unsigned bin = id * per_thread + b, end = below + bins[0][b];
      if (edges[0] >= below && edges[0] < end) s.next_band_low = bin;
      if (edges[1] >= below && edges[1] < end) s.next_band_high = bin;
      if (quartiles[0] >= below && quartiles[0] < end) s.quartile_bucket[0] = bin;
      if (quartiles[1] >= below && quartiles[1] < end) s.quartile_bucket[1] = bin;
    }
  }
  __syncthreads();
  if (id == 0) {
    ClipState& state = s.state;
    if (pass == 0) {
      // The refines may read the set-aside values if both middle values'
      // top digits are in the band they hold. Then the band the next
      // survey of the image keeps moves.
      s.refine_candidates = s.found[0] >= s.held_band_low && s.found[1] <= s.held_band_high;
      s.band_low = s.next_band_low, s.band_high = s.next_band_high;
      // Gather the median's bucket (or the two middle values' buckets) if it fits.
      s.gather = s.found_count[0] + (s.found[0] != s.found[1] ? s.found_count[1] : 0u) <= kGatherCapacity;
      // For the window: the median's bucket, where both middle values share
      // it, and the kept values below it.
      s.median_bucket = s.found[0] == s.found[1] ? s.found[0] : ~0u;
      s.below_bucket = state.rank[0] - s.found_rank[0];
      // κ times a robust std, from the quartiles' buckets (wide by up to a
      // bucket at each end): IQR / 1.349 for Gaussian values. The first
      // iteration's std is inflated by the sky's sources; a core from it
      // would be cut at once (NaN or inf at the extreme buckets: fmin
      // then takes the std).
      const double iqr = static_cast<double>(key_float((s.quartile_bucket[1] << 21) | 0x1FFFFFu)) -
                         key_float(s.quartile_bucket[0] << 21);
      s.robust_reach = kappa * iqr / 1.349;
    }
    state.prefix[0] = s.found[0], state.prefix[1] = s.found[1];
    state.rank[0] = s.found_rank[0], state.rank[1] = s.found_rank[1];
    if (pass == 2)
      finish_iteration(state, (static_cast<double>(key_float(s.found[0])) + key_float(s.found[1])) / 2, kappa);
  }
  __syncthreads();
}

// After the gather's barrier: every block copies the gathered keys into its
// shared memory and finds the two lower digits there, each by the refine's
// count and select_digit, on its own histogram.
template <int pass>
__device__ void select_gathered_digit(PersistentShared& s, double kappa, unsigned total) {
  for (int bin = threadIdx.x; bin < kPersistentHistogram; bin += kPersistentThreads) s.counts[bin] = 0;
  __syncthreads();  // the keys are in (pass 1), the counts are zero
  const DigitCount count(pass, s.state);
  for (unsigned i = threadIdx.x; i < total; i += kPersistentThreads) count(s.gathered[i], s.counts);
  __syncthreads();
  select_digit<pass>(s.counts, kappa, s);
}

// After the gathered digits: where every value in the median's bucket is a
// core value, the gathered keys are every kept value of that bucket, now
// and until the core is cut (the core stays kept, nothing else enters).
// They stay in shared memory as the window: while both middle ranks fall
// in it, the two lower digits are found among them at once, with no select
// of the top digit, no gather and no second grid barrier.
__device__ void keep_window(PersistentShared& s, unsigned total) {
  if (threadIdx.x == 0) {
    const unsigned bucket = s.median_bucket;
    s.window = s.has_core && bucket != ~0u && key_float(bucket << 21) >= s.core_low &&
               key_float((bucket << 21) | 0x1FFFFFu) <= s.core_high;
    s.window_bucket = bucket, s.window_count = total, s.window_split = s.splits;
    // Below the bucket: the core's values below it and the kept edges below the core.
    s.window_core_below = s.below_bucket - s.lower_edges;
  }
  __syncthreads();
}

__device__ void select_gathered(PersistentShared& s, double kappa, const ClipScratch& scratch) {
  const unsigned total = scratch.gathered_counts[s.state.iterations % 3];
  for (unsigned i = threadIdx.x; i < total; i += kPersistentThreads) s.gathered[i] = scratch.gathered[i];
  select_gathered_digit<1>(s, kappa, total);
  select_gathered_digit<2>(s, kappa, total);
  keep_window(s, total);
}

// After a survey of the edges, where both middle ranks fall in the window:
// their top digit is the window's bucket, their ranks in it are theirs
// less the kept values below it, and the lower digits are selected among
// the window's keys. Returns false where they do not (the selects find them).
__device__ bool median_from_window(PersistentShared& s, double kappa) {
  if (threadIdx.x == 0) {
    ClipState& state = s.state;
    const unsigned below = s.window_core_below + s.lower_edges;
    s.window_hit = s.window && s.edge_survey && s.window_split == s.splits && state.rank[0] >= below &&
                   state.rank[1] - below < s.window_count;
    if (s.window_hit) {
      state.prefix[0] = state.prefix[1] = s.window_bucket;
      state.rank[0] -= below, state.rank[1] -= below;
    }
  }
  __syncthreads();
  if (!s.window_hit) return false;
  select_gathered_digit<1>(s, kappa, s.window_count);
  select_gathered_digit<2>(s, kappa, s.window_count);
  return true;
}

// The whole clip. `partials` holds kPartials doubles per block, `histograms` three
// buffers of kPersistentHistogram words; neither needs to start at zero.
// `scratch` as ClipScratch says; its candidates_per_block at least as many
// as a block visits (candidate_room).
// Two blocks of 1024 fit on an SM of 2048 threads (A100, H100, H200) when a
// thread uses at most 32 registers, which __launch_bounds__ asks of the
// compiler; other GPUs hold 1024 (Turing) or 1536 threads an SM: one block.
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 800 || __CUDA_ARCH__ >= 900)
constexpr int kPersistentBlocksPerSm = 2;
#else
constexpr int kPersistentBlocksPerSm = 1;
#endif

// The most values one block visits in for_each_value: its threads' share of
// the float4s, four values each, and one of the last n % 4.
inline std::size_t candidate_room(unsigned n, unsigned blocks) {
  const std::size_t stride = std::size_t{blocks} * kPersistentThreads, quads = n / 4;
  return kPersistentThreads * (4 * ((quads + stride - 1) / stride) + 1);
}

__global__ void __launch_bounds__(kPersistentThreads, kPersistentBlocksPerSm)
    clip_persistent(const float* __restrict__ values, unsigned n, double kappa, double* partials, unsigned* histograms,
                    ClipScratch scratch, std::uint8_t* __restrict__ mask, double* statistics) {
  const cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  __shared__ PersistentShared s;
  auto buffer = [histograms](unsigned pass) { return histograms + (pass % 3) * kPersistentHistogram; };

  if (threadIdx.x == 0) {
    // No band: the first survey sets nothing aside.
    s.band_low = s.band_high = s.held_band_low = s.held_band_high = ~0u;
    s.refine_candidates = 0, s.block_candidates = 0, s.gather = 0;
    s.has_core = 0, s.edge_survey = 0, s.block_edges = 0, s.splits = 0;
    s.core_low = -CUDART_INF_F, s.core_high = CUDART_INF_F;  // no core: the first survey splits nothing off
    s.core_totals[0] = s.core_totals[1] = s.core_totals[2] = 0, s.core_shift = s.sums_shift = 0;
    s.window = 0, s.window_hit = 0, s.lower_edges = 0, s.robust_reach = CUDART_INF;
    ClipState& state = s.state;
    state.lower = -CUDART_INF, state.upper = CUDART_INF;
    state.pass_lower = state.pass_upper = state.median = state.mean = state.std = 0;
    state.shift = values[0];  // a constant image then sums exact zeros: std 0
    state.count = n, state.iterations = 0, state.done = 0;
  }
  clear_buffer(buffer(0));
  clear_buffer(scratch.core_histograms, 2 * kClipBuckets);
  if (blockIdx.x == 0 && threadIdx.x < 3) scratch.gathered_counts[threadIdx.x] = 0;
  grid.sync();  // buffer 0 is zero everywhere before anyone counts into it

  for (unsigned pass = 0;; ++pass) {
    survey(values, n, s, partials, buffer(pass), scratch);
    clear_buffer(buffer(pass + 1));
    grid.sync();
    if (add_up_survey(partials, s)) break;  // the same answer in every block: all leave together
    if (median_from_window(s, kappa)) continue;
    select_digit<0>(buffer(pass), kappa, s, s.edge_survey ? scratch.core_histogram(s.splits) : nullptr);
    if (s.gather) {
      // No histogram buffer used: the next survey counts into buffer(pass + 1), cleared above.
      gather(values, n, s, scratch);
      grid.sync();
      select_gathered(s, kappa, scratch);
      continue;
    }
    ++pass;
    refine(values, n, 1, s, buffer(pass), scratch);
    clear_buffer(buffer(pass + 1));
    grid.sync();
    select_digit<1>(buffer(pass), kappa, s);
    ++pass;
    refine(values, n, 2, s, buffer(pass), scratch);
    clear_buffer(buffer(pass + 1));
    grid.sync();
    select_digit<2>(buffer(pass), kappa, s);
  }

  // The mask: a float4 in and a uchar4 out where they cover the image (both
  // buffers come from cudaMalloc, aligned), the last n % 4 one by one.
  const float lower = bound_below(s.state.lower), upper = bound_above(s.state.upper);
  auto kept = [=](float x) -> unsigned char { return x > lower && x < upper; };
  const unsigned first = blockIdx.x * kPersistentThreads + threadIdx.x, stride = gridDim.x * kPersistentThreads;
  const float4* quads = reinterpret_cast<const float4*>(values);
  for (unsigned q = first; q < n / 4; q += stride) {
    const float4 v = quads[q];
    reinterpret_cast<uchar4*>(mask)[q] = make_uchar4(kept(v.x), kept(v.y), kept(v.z), kept(v.w));
  }
  for (unsigned i = 4 * (n / 4) + first; i < n; i += stride) mask[i] = kept(values[i]);
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  const ClipState& state = s.state;
  const bool empty = state.count == 0;
  statistics[0] = state.count;
  statistics[1] = empty ? CUDART_NAN : state.median;
  statistics[2] = empty ? CUDART_NAN : state.mean;
  statistics[3] = empty ? CUDART_NAN : state.std;
  statistics[4] = state.iterations;
  statistics[5] = state.pass_lower;
  statistics[6] = state.pass_upper;
}
