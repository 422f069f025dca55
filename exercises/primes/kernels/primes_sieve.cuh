#pragma once
// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// flags[k] = 1 exactly when k is prime, for 0 <= k < n.
//
// primes_sieve: a segmented sieve of Eratosthenes, one segment per block.
// Odd entry i stands for the number 2i + 1; block b owns the kSieveSegment
// entries [b * kSieveSegment, (b + 1) * kSieveSegment) (the last block
// fewer: only entries whose pair (2i, 2i + 1) meets [0, n)), and writes the
// flags of the numbers 2 * b * kSieveSegment ... up to
// 2 * (b + 1) * kSieveSegment - 1 (or n). The host launches one block of
// kSieveThreads threads per segment and passes the odd base primes
// 3 <= p <= sqrt(n), sorted; primes[0 .. small_count) are those below
// kSieveThreads.

// Until this #define (two lines) is deleted, the cuda rung reports "not
// implemented": delete it when your kernel is written, then rebuild.
#define LADDER_TODO_CUDA_KERNEL \
  "cuda: write the kernel in exercises/primes/kernels/primes_sieve.cuh, then delete its LADDER_TODO_CUDA_KERNEL #define and rebuild"
// ==== end
#include <cstdint>

// ==== exercise only
namespace {  // internal: the solution's kernel of the same name is linked into ladder too
// ==== end

constexpr int kSieveThreads = 256;
constexpr std::uint32_t kSieveSegment = 32 * 1024;  // odd numbers per block: 32 KiB of shared memory

__global__ void __launch_bounds__(kSieveThreads)
    primes_sieve(const std::uint32_t* __restrict__ primes, std::uint32_t small_count, std::uint32_t prime_count,
                 std::uint64_t n, unsigned char* __restrict__ flags) {
  // ==== yours
  // TODO: (1) the block's segment in __shared__ memory, every entry a
  // candidate; (2) cross out the odd multiples p * p, p * (p + 2), ... of
  // each base prime that fall in the segment; (3) write the segment out as
  // flags: odd numbers from the segment, even numbers 0 (but 2 is prime,
  // and 1 is not). Which threads share which primes? Do two threads that
  // clear the same entry need an atomic? What must every thread wait for
  // between the steps?
  // ==== end
}

// ==== exercise only
}  // namespace
// ==== end
