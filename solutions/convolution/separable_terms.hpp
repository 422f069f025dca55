#pragma once
// A K×L kernel as a sum of separable kernels, for the cuda_separable rung:
//
//     kernel[i][j] = Σ_t column[t][i] · row[t][j]
//
// from its singular value decomposition (kernel = U Σ Vᵀ: column[t] is
// σ_t u_t, row[t] is v_t), with as few terms as float32 needs. A kernel of
// rank r then costs r·(K + L) multiply-adds a pixel instead of K·L: one
// term for the lesson's Gaussian, exp(-(x² + y²)/2) = exp(-x²/2)·exp(-y²/2).
//
// The SVD is one-sided Jacobi (Hestenes): rotate pairs of the kernel's
// columns until every pair is orthogonal, applying the same rotations to
// the identity to get V. Then the columns are σ_t u_t. In double precision,
// on the host: the 15 × 15 Gaussian takes 2 sweeps over its 105 pairs of
// columns, a random 15 × 15 kernel 8 (measured on the development VM).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <span>
#include <vector>

namespace ladder::convolution {

struct SeparableTerms {
  int rank = 0;
  std::vector<float> columns;  // rank × K: term t's weights down the kernel's rows
  std::vector<float> rows;     // rank × L: term t's weights across its columns
};

// `kernel` is K×L, row-major. The terms kept are the fewest whose sum
// differs from the kernel by at most 2^-24 of its Frobenius norm: no more
// than rounding the kernel's weights to float32 (half an ulp each) can
// change it. The Gaussian's other singular values are that rounding.
inline SeparableTerms separable_terms(std::span<const float> kernel, int K, int L) {
  // a[j * K + i]: the kernel's column j, contiguous; v[j * L + k]: V's column j.
  std::vector<double> a(std::size_t(K) * L), v(std::size_t(L) * L, 0.0);
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < L; ++j) a[std::size_t(j) * K + i] = kernel[std::size_t(i) * L + j];
  for (int j = 0; j < L; ++j) v[std::size_t(j) * L + j] = 1.0;

  auto dot = [](const double* x, const double* y, int n) {
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += x[i] * y[i];
    return sum;
  };
  auto rotate = [](double* x, double* y, int n, double c, double s) {
    for (int i = 0; i < n; ++i) {
      const double xi = x[i], yi = y[i];
      x[i] = c * xi - s * yi;
      y[i] = s * xi + c * yi;
    }
  };
  // A pair counts as orthogonal once γ is at rounding level, relative to
  // the pair or to the whole kernel: columns that hold only the rounding of
  // the kernel's weights (the Gaussian's all but one) cannot be made more
  // orthogonal than that rounding, and rotating them on would not end.
  const double total = std::accumulate(a.begin(), a.end(), 0.0, [](double sum, double x) { return sum + x * x; });
  for (int sweep = 0; sweep < 30; ++sweep) {
    bool rotated = false;
    for (int p = 0; p < L; ++p)
      for (int q = p + 1; q < L; ++q) {
        double* ap = &a[std::size_t(p) * K];
        double* aq = &a[std::size_t(q) * K];
        const double alpha = dot(ap, ap, K), beta = dot(aq, aq, K), gamma = dot(ap, aq, K);
        if (std::abs(gamma) <= 1e-15 * std::max(std::sqrt(alpha * beta), total)) continue;
        // The rotation that makes columns p and q orthogonal (Golub & Van Loan, §8.6.3).
        const double zeta = (beta - alpha) / (2 * gamma);
        const double t = (zeta >= 0 ? 1.0 : -1.0) / (std::abs(zeta) + std::sqrt(1 + zeta * zeta));
        const double c = 1 / std::sqrt(1 + t * t), s = c * t;
        rotate(ap, aq, K, c, s);
        rotate(&v[std::size_t(p) * L], &v[std::size_t(q) * L], L, c, s);
        rotated = true;
      }
    if (!rotated) break;
  }

  // σ_j is the length of column j; the terms in decreasing order of σ.
  std::vector<double> sigma(L);
  for (int j = 0; j < L; ++j) sigma[j] = std::sqrt(dot(&a[std::size_t(j) * K], &a[std::size_t(j) * K], K));
  std::vector<int> order(L);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return sigma[x] > sigma[y]; });

  // Dropping the terms after the first r leaves an error of Frobenius norm
  // sqrt(Σ_{t≥r} σ_t²); keep the fewest terms whose dropped rest is small enough.
  // (Summed from the smallest, not subtracted from the total: the dropped
  // rest is 2^-48 of the total, where a subtraction's rounding would show.)
  std::vector<double> rest(L + 1, 0.0);  // rest[r] = Σ_{t≥r} σ_t²
  for (int r = L - 1; r >= 0; --r) rest[r] = rest[r + 1] + sigma[order[r]] * sigma[order[r]];
  const double allowed = total * std::ldexp(1.0, -48);  // (2^-24 · ‖kernel‖)²: rotations keep the norm
  SeparableTerms terms;
  while (terms.rank < L && rest[terms.rank] > allowed) {
    const int j = order[terms.rank++];
    for (int i = 0; i < K; ++i) terms.columns.push_back(static_cast<float>(a[std::size_t(j) * K + i]));
    for (int k = 0; k < L; ++k) terms.rows.push_back(static_cast<float>(v[std::size_t(j) * L + k]));
  }
  return terms;
}

}  // namespace ladder::convolution
