// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// Kappa-sigma clipping with the data on the device. The kept values are
// always those strictly inside one interval (lower, upper), the
// intersection of every pass's bounds, so no mask or compaction is needed
// until the end: each pass reads the image and tests the interval. The
// median is a radix select over order-preserving keys of the floats: 11
// bits, then 11, then 10. The host enqueues, per iteration:
//   clip_survey        count, Σ(x - shift), Σ(x - shift)² of the kept values,
//                      and a histogram of the top 11 bits of their keys;
//   clip_select(0)     one work-group: adds the groups' sums, stops the loop
//                      if nothing was removed, else mean and std, and finds
//                      the bucket of each middle value;
//   clip_refine(1, 2)  histograms the next 11, then the last 10 key bits of
//                      the kept values whose higher bits match;
//   clip_select(1, 2)  narrows each middle value to its bucket; after pass 2
//                      the median and the new bounds are known.
// The host reads only `done` (every few iterations) and keeps enqueueing
// until it is set: once it is set, every kernel must return at once.
// clip_start (before the loop) and clip_mask (after it) are given.
// ==== end
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define BUCKETS 2048  // 11-bit digits (the last digit has 10 bits and uses half)
#define GROUP 256     // work-items per group, for every kernel but clip_start

// The loop's state, on the device. The host mirror in solutions/kappa_sigma/
// opencl.cpp has the same layout.
typedef struct {
  double lower, upper;            // the kept values: lower < x < upper
  double pass_lower, pass_upper;  // the last pass's bounds
  double median, mean, std;       // the last pass's statistics
  double shift;                   // the sums are of x - shift (the last median)
  uint count;                     // values kept when the iteration began
  uint iterations;                // passes that computed bounds
  uint done;                      // 1: the last pass removed nothing, or everything
  uint unused;
  uint prefix[2];  // the key bits found so far of the middle values
  uint rank[2];    // their ranks among the values sharing those bits
} ClipState;

// Unsigned keys in the order of the floats: flip the sign bit of positives,
// every bit of negatives.
uint float_key(float x) {
  const uint bits = as_uint(x);
  return bits ^ ((bits >> 31) ? 0xFFFFFFFFu : 0x80000000u);
}
float key_float(uint key) { return as_float(key ^ ((key >> 31) ? 0x80000000u : 0xFFFFFFFFu)); }

// ==== exercise only
// Given: one work-item, before the loop.
// ==== end
__kernel void clip_start(__global const float* values, const uint n, __global ClipState* state) {
  state->lower = -INFINITY;
  state->upper = INFINITY;
  state->shift = values[0];  // a constant image then sums exact zeros: std 0
  state->count = n;
  state->iterations = 0;
  state->done = 0;
}

// ==== exercise only
// LADDER_TODO: write clip_survey, clip_refine and clip_select, then delete this line.

// The host launches a few groups of GROUP work-items per compute unit;
// they stride over the n values. Writes partials[3g + 0, 1, 2] = this
// group's count, Σ(x - shift), Σ(x - shift)² (doubles) over the kept
// values, and adds to counts[0 .. BUCKETS) the histogram of float_key(x) >> 21.
// ==== end
__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1))) void clip_survey(
    __global const float* values, const uint n, __global const ClipState* state, __global double* partials,
    __global uint* counts) {
  // ==== yours
  // TODO: a histogram in __local memory, sums reduced over the group.
  // ==== end
}

// ==== exercise only
// Pass 1: for the kept values whose top 11 key bits equal prefix[0]
// (prefix[1]), adds the histogram of key bits 20-10 to counts[0 .. BUCKETS)
// (counts[BUCKETS .. 2 BUCKETS)); pass 2: the same with the top 22 bits and
// bits 9-0. When both prefixes are equal, only the first histogram counts.
// ==== end
__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1))) void clip_refine(
    __global const float* values, const uint n, __global const ClipState* state, __global uint* counts,
    const uint pass) {
  // ==== yours
  // TODO
  // ==== end
}

// ==== exercise only
// One group of GROUP work-items. Pass 0 first adds up the `groups`
// partials (in a fixed order, so that every run gives the same bits); if
// an iteration has run and this count equals state->count, or is 0, it
// sets done; else it sets mean, std (ddof 0), count, and the ranks
// (count - 1) / 2 and count / 2 of the two middle values, prefixes 0.
// Every pass then finds, for each middle value, the bucket of its
// histogram that holds its rank: prefix = (prefix << digit bits) | bucket,
// rank = its rank within the bucket; and clears counts (both histograms)
// for the next pass. After pass 2 the prefixes are the two middle keys:
// median (their mean, in double), pass_lower/pass_upper = median ∓ kappa·std,
// lower/upper = the intersection with the old interval, shift = median,
// iterations + 1.
// ==== end
__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1))) void clip_select(
    __global ClipState* state, __global const double* partials, const uint groups, __global uint* counts,
    const uint pass, const double kappa) {
  // ==== yours
  // TODO: a scan over the bins' totals finds the bucket of a rank.
  // ==== end
}

// The mask of the kept values, and the statistics (count, median, mean, std,
// iterations, lower, upper; NaN for the first three when nothing was kept).
__kernel void clip_mask(__global const float* values, const uint n, __global const ClipState* state,
                        __global uchar* mask, __global double* statistics) {
  const double lower = state->lower, upper = state->upper;
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    const float x = values[i];
    mask[i] = x > lower && x < upper;
  }
  if (get_global_id(0) != 0) return;
  const int empty = state->count == 0;
  statistics[0] = state->count;
  statistics[1] = empty ? NAN : state->median;
  statistics[2] = empty ? NAN : state->mean;
  statistics[3] = empty ? NAN : state->std;
  statistics[4] = state->iterations;
  statistics[5] = state->pass_lower;
  statistics[6] = state->pass_upper;
}
