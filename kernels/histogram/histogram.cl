// counts[v] = how many of the n values equal v, for v in [0, 256).
//
// histogram_zero clears the counts: the rung launches it before every
// histogram_local, so the clearing is a kernel the profiling times.
__kernel void histogram_zero(__global uint* counts) {
  const size_t bin = get_global_id(0);
  if (bin < 256) counts[bin] = 0;
}

// histogram_local: each work-group counts into its own histogram in local
// memory, where atomics are cheap and only the group's work-items contend,
// then adds it to the global counts with one atomic per non-empty bin.
// The work-items stride over the values by the global size, so a few
// groups per compute unit cover any n (n <= 2^31: i + stride never wraps).
__kernel void histogram_local(__global const uchar* values, const uint n, __global uint* counts) {
  __local uint local_counts[256];
  for (uint bin = get_local_id(0); bin < 256; bin += get_local_size(0)) local_counts[bin] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);  // all zeroed before anyone counts

  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) atomic_inc(&local_counts[values[i]]);
  barrier(CLK_LOCAL_MEM_FENCE);  // all counted before anyone merges

  for (uint bin = get_local_id(0); bin < 256; bin += get_local_size(0))
    if (local_counts[bin] != 0) atomic_add(&counts[bin], local_counts[bin]);
}
