// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// flags[k] = 1 exactly when k is prime, for 0 <= k < n.
//
// primes_sieve: a segmented sieve of Eratosthenes, one segment per
// work-group. Odd entry i stands for the number 2i + 1; group g owns the
// SEGMENT entries [g * SEGMENT, (g + 1) * SEGMENT) (the last group fewer:
// only entries whose pair (2i, 2i + 1) meets [0, n)), and writes the flags
// of the numbers 2 * g * SEGMENT ... up to 2 * (g + 1) * SEGMENT - 1 (or n).
// The host launches one group of 256 work-items per segment and passes the
// odd base primes 3 <= p <= sqrt(n), sorted; primes[0 .. small_count) are
// those below the group size.
// ==== end
#ifndef SEGMENT
#define SEGMENT 32768  // odd numbers per work-group; the host passes -DSEGMENT=...
#endif

// ==== exercise only
// LADDER_TODO: write the kernel's body, then delete this line.
// ==== end
__kernel void primes_sieve(__global const uint* primes, const uint small_count, const uint prime_count,
                           const ulong n, __global uchar* flags) {
  // ==== yours
  // TODO: (1) the group's segment in __local memory, every entry a
  // candidate; (2) cross out the odd multiples p * p, p * (p + 2), ... of
  // each base prime that fall in the segment; (3) write the segment out as
  // flags: odd numbers from the segment, even numbers 0 (but 2 is prime,
  // and 1 is not). Which work-items share which primes? Do two work-items
  // that clear the same entry need an atomic? What must every work-item
  // wait for between the steps? Start simple (correct first), then make
  // the writes to global memory coalesced.
  // ==== end
}
