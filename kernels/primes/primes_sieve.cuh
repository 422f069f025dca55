#pragma once
// A segmented sieve of Eratosthenes, one segment per block. Odd entry i is
// the number 2i + 1; a block owns kSieveSegment consecutive entries, one byte
// each in shared memory, crosses out there the odd multiples of the base
// primes (3 <= p <= sqrt(n), sorted, from the host), then writes its
// 2 * kSieveSegment flags (even numbers 0, except 2) with coalesced stores.
//
// Who crosses what: a small prime (p < kSieveThreads) has hundreds to
// thousands of multiples in a segment, so the whole block shares each one
// (thread t crosses the t-th, t + 256-th, ... multiple); a large prime has
// at most 128, so each thread takes whole primes of its own and finds its
// first multiple once. Two threads that clear the same byte write the same
// 0: no atomics are needed.
#include <cstdint>

constexpr int kSieveThreads = 256;
constexpr std::uint32_t kSieveSegment = 32 * 1024;  // odd numbers per block: 32 KiB of shared memory

// The entry, relative to the segment's first entry `low`, of the first odd
// multiple of p that is >= max(p * p, first = 2 low + 1); past the segment
// when there is none in it (by less than p: callers check p * p <= last).
__device__ __forceinline__ std::uint32_t first_multiple(std::uint32_t p, std::uint64_t low) {
  const std::uint64_t first = 2 * low + 1;
  std::uint64_t multiple = std::uint64_t{p} * p;
  if (multiple < first) {
    const std::uint32_t remainder = static_cast<std::uint32_t>(first) % p;  // first < 2^32
    multiple = first + (remainder ? p - remainder : 0);
    if (multiple % 2 == 0) multiple += p;
  }
  return static_cast<std::uint32_t>((multiple - 1) / 2 - low);
}

// primes[0 .. small_count) are the base primes below kSieveThreads.
__global__ void __launch_bounds__(kSieveThreads)
    primes_sieve(const std::uint32_t* __restrict__ primes, std::uint32_t small_count, std::uint32_t prime_count,
                 std::uint64_t n, unsigned char* __restrict__ flags) {
  __shared__ std::uint32_t words[kSieveSegment / 4];  // the segment, as words for the fill and the write-out
  unsigned char* segment = reinterpret_cast<unsigned char*>(words);

  const std::uint64_t odds = (n + 1) / 2;  // entries whose pair (2i, 2i + 1) meets [0, n)
  const std::uint64_t low = std::uint64_t{blockIdx.x} * kSieveSegment;
  const auto length = static_cast<std::uint32_t>(min(std::uint64_t{kSieveSegment}, odds - low));
  const std::uint64_t last = 2 * (low + length) - 1;  // the block's largest odd number
  for (std::uint32_t w = threadIdx.x; w < kSieveSegment / 4; w += blockDim.x) words[w] = 0x01010101u;
  __syncthreads();  // all candidates before anyone crosses

  // Odd multiples are p entries apart; 32-bit indices suffice (p < 2^16).
  for (std::uint32_t j = 0; j < small_count; ++j) {
    const std::uint32_t p = primes[j];
    if (std::uint64_t{p} * p > last) break;  // sorted: no larger prime crosses here
    for (std::uint32_t i = first_multiple(p, low) + threadIdx.x * p; i < length; i += kSieveThreads * p) segment[i] = 0;
  }
  for (std::uint32_t j = small_count + threadIdx.x; j < prime_count; j += kSieveThreads) {
    const std::uint32_t p = primes[j];
    if (std::uint64_t{p} * p > last) break;
    for (std::uint32_t i = first_multiple(p, low); i < length; i += p) segment[i] = 0;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) segment[0] = 0;  // 1 is not prime

  __syncthreads();  // the segment is complete before it is written out

  if (2 * (low + length) <= n) {
    // Whole words: entries 4w ... 4w + 3 become flags 8w ... 8w + 7, the odd
    // ones the entries and the even ones 0 (flag 2 set by block 0's thread 0).
    uint2* out = reinterpret_cast<uint2*>(flags + 2 * low);
    for (std::uint32_t w = threadIdx.x; w < length / 4; w += blockDim.x) {
      const std::uint32_t s = words[w];
      uint2 pair;
      pair.x = ((s & 0xFFu) << 8) | ((s & 0xFF00u) << 16);
      pair.y = ((s & 0xFF0000u) >> 8) | (s & 0xFF000000u);
      if (blockIdx.x == 0 && w == 0) pair.x |= 1u << 16;  // 2 is prime
      out[w] = pair;
    }
    for (std::uint32_t i = length / 4 * 4 + threadIdx.x; i < length; i += blockDim.x) {
      const std::uint64_t even = 2 * (low + i);
      flags[even] = even == 2;
      flags[even + 1] = segment[i];
    }
  } else {
    // The last block: entry by entry, up to n.
    for (std::uint32_t i = threadIdx.x; i < length; i += blockDim.x) {
      const std::uint64_t even = 2 * (low + i);
      flags[even] = even == 2;
      if (even + 1 < n) flags[even + 1] = segment[i];
    }
  }
}
