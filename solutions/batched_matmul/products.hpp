// The serial rung's two ways through a batch, shared with the openmp rung.
// Which is faster depends on the shape, so the rungs choose by it:
//
//  - Rows (matrices of more than 64 elements): one pair at a time, in
//    i-k-j order. Row i of c is the
//    sum over k of a[i][k] times row k of b, so the innermost loop runs
//    along a row of b and a row of c, contiguous in memory: the compiler
//    turns it into vector instructions of 8 floats (AVX2) or 16 (AVX-512),
//    in the clone of the function for the widest vectors the processor has
//    (LADDER_WIDEST_VECTORS; the build itself targets SSE2's 4).
//  - Across the batch (a, b and c each at most 64 elements, as the slides'
//    2 × 4 and 4 × 5): a row of 5 floats fills no vector. Instead,
//    kLanes pairs are copied side by side into a small batch-inner buffer,
//    element (i, k) of all kLanes matrices next to each other, and one
//    vector instruction does the same multiply-add for kLanes matrices.
//    The copies stay in the L1 cache; this is the layout lesson of
//    `@guvectorize`: the loop to vectorise is the batch.
#pragma once

#include <algorithm>
#include <cstddef>

#include "ladder/widest_vectors.hpp"

namespace ladder::batched_matmul {

constexpr std::size_t kLanes = 16;  // pairs side by side: one AVX-512 vector, two AVX2 vectors
constexpr std::size_t kMaxSide = 64;
constexpr std::size_t kSmall = 64;  // elements: matrices this small go across the batch (12 KiB of copies)

struct Batch {
  const float* a;
  const float* b;
  float* c;
  std::size_t m, n, p;
};

// c[q] = a[q] @ b[q] for q in [first, last), one pair at a time, i-k-j.
// With p known at compile time (P > 0) the row of c stays in vector
// registers through the k loop (p = 64: four AVX-512 registers); with p
// read at run time (P = 0) it goes to memory and back for every k.
// Measured and not kept: four rows of c at a time, so that each load of b
// feeds four multiply-adds. On the 2-core AVX-512 development VM it took
// 8.9 ms for 1024 products of 64³ against 5.6 ms for one row (the four
// rows' 64 floats each no longer stay in registers), and 0.91 against
// 1.05 ms for 8192 of 16³.
template <std::size_t P>
LADDER_WIDEST_VECTORS void multiply_rows_of(const Batch& x, std::size_t first, std::size_t last) {
  const std::size_t m = x.m, n = x.n, p = P > 0 ? P : x.p;
  for (std::size_t q = first; q < last; ++q) {
    const float* __restrict a = x.a + q * m * n;
    const float* __restrict b = x.b + q * n * p;
    float* __restrict c = x.c + q * m * p;
    for (std::size_t i = 0; i < m; ++i) {
      float row[P > 0 ? P : kMaxSide] = {};
      for (std::size_t k = 0; k < n; ++k) {
        const float a_ik = a[i * n + k];
#pragma omp simd
        for (std::size_t j = 0; j < p; ++j) row[j] += a_ik * b[k * p + j];
      }
      std::copy(row, row + p, c + i * p);
    }
  }
}

inline void multiply_rows(const Batch& x, std::size_t first, std::size_t last) {
  switch (x.p) {
    case 8: return multiply_rows_of<8>(x, first, last);
    case 16: return multiply_rows_of<16>(x, first, last);
    case 32: return multiply_rows_of<32>(x, first, last);
    case 64: return multiply_rows_of<64>(x, first, last);
    default: return multiply_rows_of<0>(x, first, last);
  }
}

// The same for q in [first, last), kLanes pairs at a time, vectorised
// across the pairs; a last group of fewer than kLanes goes one by one.
// Needs goes_across(x): each matrix at most kSmall elements.
LADDER_WIDEST_VECTORS inline void multiply_across(const Batch& x, std::size_t first, std::size_t last) {
  const std::size_t m = x.m, n = x.n, p = x.p;
  // Batch-inner copies: a_t[(i n + k) kLanes + lane] = a[q0 + lane][i][k].
  alignas(64) float a_t[kSmall * kLanes];
  alignas(64) float b_t[kSmall * kLanes];
  alignas(64) float c_t[kSmall * kLanes];
  std::size_t q0 = first;
  for (; q0 + kLanes <= last; q0 += kLanes) {
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
      const float* a = x.a + (q0 + lane) * m * n;
      const float* b = x.b + (q0 + lane) * n * p;
      for (std::size_t e = 0; e < m * n; ++e) a_t[e * kLanes + lane] = a[e];
      for (std::size_t e = 0; e < n * p; ++e) b_t[e * kLanes + lane] = b[e];
    }
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < p; ++j) {
        float* __restrict out = c_t + (i * p + j) * kLanes;
#pragma omp simd
        for (std::size_t lane = 0; lane < kLanes; ++lane) out[lane] = 0;
        for (std::size_t k = 0; k < n; ++k) {
          const float* __restrict a_ik = a_t + (i * n + k) * kLanes;
          const float* __restrict b_kj = b_t + (k * p + j) * kLanes;
#pragma omp simd
          for (std::size_t lane = 0; lane < kLanes; ++lane) out[lane] += a_ik[lane] * b_kj[lane];
        }
      }
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
      float* c = x.c + (q0 + lane) * m * p;
      for (std::size_t e = 0; e < m * p; ++e) c[e] = c_t[e * kLanes + lane];
    }
  }
  multiply_rows(x, q0, last);
}

inline bool goes_across(const Batch& x) { return x.m * x.n <= kSmall && x.n * x.p <= kSmall && x.m * x.p <= kSmall; }

// The rungs' choice: across the batch for small matrices, else by rows.
inline void multiply(const Batch& x, std::size_t first, std::size_t last) {
  if (goes_across(x))
    multiply_across(x, first, last);
  else
    multiply_rows(x, first, last);
}

}  // namespace ladder::batched_matmul
