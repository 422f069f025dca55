// Kappa-sigma clipping with the data on the device (kernels/kappa_sigma/
// kappa_sigma.cuh is the same in CUDA). The kept values are always those
// strictly inside one interval (lower, upper) — the intersection of every
// pass's bounds — so no mask or compaction is needed until the end: each
// pass reads the image and tests the interval. One iteration:
//   clip_survey        count, Σ(x - shift), Σ(x - shift)² of the kept values,
//                      and a histogram of the top 11 bits of their keys;
//   clip_select(0)     one work-group: adds the groups' sums (in a fixed
//                      order), stops the loop if nothing was removed, else
//                      mean and std, and finds the bucket of each middle value;
//   clip_refine(1, 2)  histograms the next 11, then the last 10 key bits of
//                      the kept values whose higher bits match;
//   clip_select(1, 2)  narrows each middle value to its bucket; after the last
//                      digit the median and the new bounds are known.
// Only the `done` flag is read by the host (every few iterations); once it
// is set every kernel returns at once. clip_mask then writes the mask and
// the statistics. Needs cl_khr_fp64: the sums and the bounds are in double.
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

__kernel void clip_start(__global const float* values, const uint n, __global ClipState* state) {
  state->lower = -INFINITY;
  state->upper = INFINITY;
  state->shift = values[0];  // a constant image then sums exact zeros: std 0
  state->count = n;
  state->iterations = 0;
  state->done = 0;
}

// Adds this group's local histogram into the global one, non-zero bins only.
void merge_counts(__local const uint* local_counts, __global uint* counts, const uint buckets) {
  for (uint bin = get_local_id(0); bin < buckets; bin += GROUP)
    if (local_counts[bin] != 0) atomic_add(&counts[bin], local_counts[bin]);
}

__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1))) void clip_survey(
    __global const float* values, const uint n, __global const ClipState* state, __global double* partials,
    __global uint* counts) {
  if (state->done) return;  // the same for the whole group: no barrier is skipped by some only
  __local uint local_counts[BUCKETS];
  __local double local_sums[3][GROUP];
  const uint id = get_local_id(0);
  for (uint bin = id; bin < BUCKETS; bin += GROUP) local_counts[bin] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);

  const double lower = state->lower, upper = state->upper, shift = state->shift;
  uint kept = 0;
  double sum = 0, squares = 0;
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    const float x = values[i];
    if (!(x > lower && x < upper)) continue;
    const double d = x - shift;
    ++kept, sum += d, squares += d * d;
    atomic_inc(&local_counts[float_key(x) >> 21]);
  }
  local_sums[0][id] = kept, local_sums[1][id] = sum, local_sums[2][id] = squares;
  for (uint stride = GROUP / 2; stride > 0; stride /= 2) {  // a tree, the same order every run
    barrier(CLK_LOCAL_MEM_FENCE);
    if (id < stride)
      for (int k = 0; k < 3; ++k) local_sums[k][id] += local_sums[k][id + stride];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (id < 3) partials[3 * get_group_id(0) + id] = local_sums[id][0];
  merge_counts(local_counts, counts, BUCKETS);
}

__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1))) void clip_refine(
    __global const float* values, const uint n, __global const ClipState* state, __global uint* counts,
    const uint pass) {
  if (state->done) return;
  __local uint local_counts[2 * BUCKETS];  // one histogram per middle value
  const uint id = get_local_id(0);
  for (uint bin = id; bin < 2 * BUCKETS; bin += GROUP) local_counts[bin] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);

  const uint shift = pass == 1 ? 10 : 0, above = pass == 1 ? 21 : 10, digits = pass == 1 ? 2047 : 1023;
  const uint first = state->prefix[0], second = state->prefix[1];
  const double lower = state->lower, upper = state->upper;
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    const float x = values[i];
    if (!(x > lower && x < upper)) continue;
    const uint key = float_key(x), prefix = key >> above, digit = (key >> shift) & digits;
    if (prefix == first)
      atomic_inc(&local_counts[digit]);
    else if (prefix == second)
      atomic_inc(&local_counts[BUCKETS + digit]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  merge_counts(local_counts, counts, 2 * BUCKETS);
}

// One group of GROUP work-items. Work-item t owns bins [8t, 8t + 8) of each
// histogram: it sums them, a scan over the group gives the count below its
// bins, and the one whose bins hold a middle value's rank finds its bucket.
// Every work-item then clears its own bins for the next pass.
__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1))) void clip_select(
    __global ClipState* state, __global const double* partials, const uint groups, __global uint* counts,
    const uint pass, const double kappa) {
  if (state->done) return;
  __local double local_sums[3][GROUP];
  __local uint scan[2][GROUP];
  __local uint found[2], found_rank[2];
  __local uint stop;
  const uint id = get_local_id(0);
  const uint per_item = BUCKETS / GROUP;

  if (pass == 0) {
    double sums[3] = {0, 0, 0};
    for (uint g = id; g < groups; g += GROUP)
      for (int k = 0; k < 3; ++k) sums[k] += partials[3 * g + k];
    for (int k = 0; k < 3; ++k) local_sums[k][id] = sums[k];
    for (uint stride = GROUP / 2; stride > 0; stride /= 2) {
      barrier(CLK_LOCAL_MEM_FENCE);
      if (id < stride)
        for (int k = 0; k < 3; ++k) local_sums[k][id] += local_sums[k][id + stride];
    }
    // A global fence too: everyone has read state->done before work-item 0 may set it.
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (id == 0) {
      const uint count = (uint)local_sums[0][0];
      // Nothing removed by the last pass, or nothing left: its statistics stand.
      stop = state->iterations > 0 && (count == state->count || count == 0);
      state->count = count;
      if (stop) {
        state->done = 1;
      } else {
        const double offset = local_sums[1][0] / count;
        state->mean = state->shift + offset;
        state->std = sqrt(fmax(0.0, local_sums[2][0] / count - offset * offset));
        state->rank[0] = (count - 1) / 2, state->rank[1] = count / 2;
        state->prefix[0] = state->prefix[1] = 0;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (stop) {
      for (uint bin = id * per_item; bin < (id + 1) * per_item; ++bin) counts[bin] = 0;
      return;
    }
  }

  // One histogram when both middle values share their prefix (always after
  // the survey, which keeps one), else one each. The state is read before
  // anyone writes it.
  const uint digit_bits = pass == 2 ? 10 : 11;
  const uint prefixes[2] = {state->prefix[0], state->prefix[1]}, ranks[2] = {state->rank[0], state->rank[1]};
  const int shared = pass == 0 || prefixes[0] == prefixes[1];
  for (int t = 0; t < 2; ++t) {
    __global const uint* bins = counts + (shared ? 0 : t * BUCKETS) + id * per_item;
    uint total = 0;
    for (uint b = 0; b < per_item; ++b) total += bins[b];
    scan[t][id] = total;
  }
  for (uint step = 1; step < GROUP; step *= 2) {  // inclusive scan (Hillis-Steele)
    barrier(CLK_LOCAL_MEM_FENCE);
    uint add[2] = {0, 0};
    if (id >= step) add[0] = scan[0][id - step], add[1] = scan[1][id - step];
    barrier(CLK_LOCAL_MEM_FENCE);
    scan[0][id] += add[0], scan[1][id] += add[1];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int t = 0; t < 2; ++t) {
    __global const uint* bins = counts + (shared ? 0 : t * BUCKETS) + id * per_item;
    uint below = id == 0 ? 0 : scan[t][id - 1];
    if (ranks[t] < below || ranks[t] >= scan[t][id]) continue;
    for (uint b = 0; b < per_item; below += bins[b], ++b) {
      if (ranks[t] < below + bins[b]) {
        found[t] = (prefixes[t] << digit_bits) | (id * per_item + b);
        found_rank[t] = ranks[t] - below;
        break;
      }
    }
  }
  // A global fence too: every work-item has read the state (global memory)
  // before work-item 0 rewrites it (a local fence orders only local memory;
  // Oclgrind reported the race).
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  for (uint bin = id * per_item; bin < (id + 1) * per_item; ++bin) counts[bin] = counts[BUCKETS + bin] = 0;
  if (id != 0) return;
  state->prefix[0] = found[0], state->prefix[1] = found[1];
  state->rank[0] = found_rank[0], state->rank[1] = found_rank[1];
  if (pass < 2) return;
  // Both middle values are known: the median (their mean in double; the same
  // value twice for an odd count), this pass's bounds, the kept interval.
  state->median = ((double)key_float(found[0]) + (double)key_float(found[1])) / 2;
  state->pass_lower = state->median - kappa * state->std;
  state->pass_upper = state->median + kappa * state->std;
  state->lower = fmax(state->lower, state->pass_lower);
  state->upper = fmin(state->upper, state->pass_upper);
  state->shift = state->median;
  state->iterations += 1;
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
