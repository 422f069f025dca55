// flags[k] = 1 exactly when k is prime, for 0 <= k < n.

// primes_trial: the GPU lesson's answer, one work-item per number k, trial
// division by 2, 3, ... up to sqrt(k), stopping at the first divisor. A
// wavefront takes as long as its slowest work-item: nearly always a prime.
__kernel void primes_trial(const uint n, __global uchar* flags) {
  const size_t index = get_global_id(0);
  if (index >= n) return;
  const uint k = (uint)index;
  uchar prime = k >= 2;  // 0 and 1 are not prime
  // d * d in 64 bits: for k near 2^32, d reaches 65536 and d * d would wrap.
  for (uint d = 2; (ulong)d * d <= k; ++d) {
    if (k % d == 0) {
      prime = 0;
      break;
    }
  }
  flags[k] = prime;
}

// primes_sieve: a segmented sieve of Eratosthenes, one segment per
// work-group, as kernels/primes/primes_sieve.cuh. Odd entry i is the number
// 2i + 1; a group owns SEGMENT consecutive entries (a build option, set from
// the device's local memory), one byte each in local memory, crosses out the
// odd multiples of the base primes (3 <= p <= sqrt(n), sorted, from the
// host), then writes its 2 * SEGMENT flags with coalesced 8-byte stores.
// A small prime (below the group size) has many multiples in a segment and
// the whole group shares each one; a large prime has few, and each
// work-item takes whole primes of its own. Two work-items that clear the
// same byte write the same 0, so no atomics are needed.
#ifndef SEGMENT
#define SEGMENT 32768  // odd numbers per work-group; the host passes -DSEGMENT=...
#endif

// The entry, relative to the segment's first entry `low`, of the first odd
// multiple of p that is >= max(p * p, first = 2 low + 1); past the segment
// when there is none in it (by less than p: callers check p * p <= last).
uint first_multiple(const uint p, const ulong low) {
  const ulong first = 2 * low + 1;
  ulong multiple = (ulong)p * p;
  if (multiple < first) {
    const uint remainder = (uint)first % p;  // first < 2^32
    multiple = first + (remainder ? p - remainder : 0);
    if (multiple % 2 == 0) multiple += p;
  }
  return (uint)((multiple - 1) / 2 - low);
}

// primes[0 .. small_count) are the base primes below the work-group size.
__kernel void primes_sieve(__global const uint* primes, const uint small_count, const uint prime_count,
                           const ulong n, __global uchar* flags) {
  __local uint words[SEGMENT / 4];  // the segment, as words for the fill and the write-out
  __local uchar* segment = (__local uchar*)words;
  const uint local_id = get_local_id(0);
  const uint threads = get_local_size(0);

  const ulong odds = (n + 1) / 2;  // entries whose pair (2i, 2i + 1) meets [0, n)
  const ulong low = (ulong)get_group_id(0) * SEGMENT;
  const uint length = (uint)min((ulong)SEGMENT, odds - low);
  const ulong last = 2 * (low + length) - 1;  // the group's largest odd number
  for (uint w = local_id; w < SEGMENT / 4; w += threads) words[w] = 0x01010101u;
  barrier(CLK_LOCAL_MEM_FENCE);  // all candidates before anyone crosses

  // Odd multiples are p entries apart; 32-bit indices suffice (p < 2^16).
  for (uint j = 0; j < small_count; ++j) {
    const uint p = primes[j];
    if ((ulong)p * p > last) break;  // sorted: no larger prime crosses here
    for (uint i = first_multiple(p, low) + local_id * p; i < length; i += threads * p) segment[i] = 0;
  }
  for (uint j = small_count + local_id; j < prime_count; j += threads) {
    const uint p = primes[j];
    if ((ulong)p * p > last) break;
    for (uint i = first_multiple(p, low); i < length; i += p) segment[i] = 0;
  }
  if (get_group_id(0) == 0 && local_id == 0) segment[0] = 0;  // 1 is not prime
  barrier(CLK_LOCAL_MEM_FENCE);  // the segment is complete before it is written out

  if (2 * (low + length) <= n) {
    // Whole words: entries 4w ... 4w + 3 become flags 8w ... 8w + 7, the odd
    // ones the entries and the even ones 0 (flag 2 set by group 0's item 0).
    __global uint2* out = (__global uint2*)(flags + 2 * low);
    for (uint w = local_id; w < length / 4; w += threads) {
      const uint s = words[w];
      uint2 pair = (uint2)(((s & 0xFFu) << 8) | ((s & 0xFF00u) << 16), ((s & 0xFF0000u) >> 8) | (s & 0xFF000000u));
      if (get_group_id(0) == 0 && w == 0) pair.x |= 1u << 16;  // 2 is prime
      out[w] = pair;
    }
    for (uint i = length / 4 * 4 + local_id; i < length; i += threads) {
      const ulong even = 2 * (low + i);
      flags[even] = even == 2;
      flags[even + 1] = segment[i];
    }
  } else {
    // The last group: entry by entry, up to n.
    for (uint i = local_id; i < length; i += threads) {
      const ulong even = 2 * (low + i);
      flags[even] = even == 2;
      if (even + 1 < n) flags[even + 1] = segment[i];
    }
  }
}
