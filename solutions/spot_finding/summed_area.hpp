#pragma once
// DIALS' method, shared by the serial and openmp rungs: a summed-area table
// (SAT) holds, at (j, i), the sums of m (valid pixels), Σv and Σv² over
// every pixel above and to the left. Any window's sums are then four reads:
//
//   box = S[bottom][right] - S[top][right] - S[bottom][left] + S[top][left]
//
// so each pixel costs the same whatever the window's size.
//
// The table has a zero row on top and a zero column on the left, so that
// windows clipped at the frame's first row or column need no special case
// (DIALS has three branches for them).
//
// Integer types: a box sum never exceeds 31² · 65535 < 2^32 (m and Σv) or
// 31² · 65535² < 2^64 (Σv²), but the table's own entries do: the sums of a
// whole 512 × 1028 frame of saturated pixels reach 3.4·10^10. That is fine:
// unsigned arithmetic wraps modulo 2^32 (2^64), and a box sum computed from
// wrapped entries is still exact, because the true box sum fits.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "bench/problems/spot_finding/spot_finding.hpp"

namespace ladder::spot_finding {

// Rows per table. A table of a whole 512 × 1028 frame is 8 MB, streamed
// through memory once to build and once more to read; a band of 64 rows
// (plus the 2k rows its windows reach beyond it, ~10 % more work at k = 3)
// is about 1 MB and is read back while still in the caches.
constexpr long kBandRows = 64;

// DIALS' test (spot_finding.hpp's dispersion_test), decided with fewer
// square roots and no unpredictable branch, to the same bit:
//  - sqrt(2(m - 1)) depends on m alone: a table of the same correctly
//    rounded values, so c is the same product;
//  - a > c and b > 0 are computed for every pixel, without a branch (b > 0
//    is a coin toss on the background: a branch on it mispredicts half the
//    time). Both are needed for b > d (d >= 0), and both hold rarely, so
//    d's sqrt is taken only for those few pixels.
class DispersionTest {
 public:
  explicit DispersionTest(const Settings& s) : s_(s), root_(static_cast<std::size_t>(s.window()) + 1) {
    for (std::size_t m = 1; m < root_.size(); ++m) root_[m] = std::sqrt(2 * (static_cast<double>(m) - 1));
  }
  // For a valid pixel whose value exceeds the threshold.
  bool operator()(std::uint32_t m, std::uint64_t x, std::uint64_t y, std::uint16_t v) const {
    const double dm = m, dx = static_cast<double>(x), dy = static_cast<double>(y);
    const double a = dm * dy - dx * dx - dx * (dm - 1);
    const double b = dm * v - dx;
    const double c = dx * s_.sigma_b * root_[m];
    const int candidate = int(m >= s_.min_count) & int(a > c) & int(b > 0);  // & not &&: no branch
    if (__builtin_expect(candidate == 0, 1)) return false;
    const double d = s_.sigma_s * std::sqrt(dx * dm);
    return b > d;
  }

 private:
  Settings s_;
  std::vector<double> root_;  // root_[m] = sqrt(2 (m - 1)), m in [1, window]
};

struct SatEntry {
  std::uint32_t m, x;  // valid pixels, Σv (modulo 2^32)
  std::uint64_t y;     // Σv² (modulo 2^64)
};

// Marks the signal pixels of rows [row_begin, row_end) of one frame (H × W,
// row-major). The table covers those rows and the k rows either side that
// their windows reach; `table` is reused between calls (no allocation once
// it is large enough).
inline void threshold_rows(const std::uint16_t* image, const std::uint8_t* mask, std::uint8_t* signal, long height,
                           long width, long row_begin, long row_end, const Settings& s, const DispersionTest& test,
                           std::vector<SatEntry>& table) {
  const long k = s.kernel_size;
  const long top = std::max(0L, row_begin - k), bottom = std::min(height, row_end + k);
  const long stride = width + 1;
  table.resize(static_cast<std::size_t>((bottom - top + 1) * stride));
  SatEntry* sat = table.data();

  // The table: each row's running sums plus the table row above.
  std::fill(sat, sat + stride, SatEntry{0, 0, 0});
  for (long y = top; y < bottom; ++y) {
    const std::uint16_t* v = image + y * width;
    const std::uint8_t* valid = mask + y * width;
    const SatEntry* above = sat + (y - top) * stride;
    SatEntry* row = sat + (y - top + 1) * stride;
    row[0] = {0, 0, 0};
    std::uint32_t m = 0, x = 0;
    std::uint64_t yy = 0;
    for (long i = 0; i < width; ++i) {
      const std::uint32_t w = valid[i] ? v[i] : 0;  // a masked pixel adds nothing
      m += valid[i] != 0, x += w, yy += std::uint64_t{w} * w;
      row[i + 1] = {above[i + 1].m + m, above[i + 1].x + x, above[i + 1].y + yy};
    }
  }

  // The test: a window's sums from four corners of the table.
  for (long y = row_begin; y < row_end; ++y) {
    const SatEntry* upper = sat + (std::max(0L, y - k) - top) * stride;              // the row above the window
    const SatEntry* lower = sat + (std::min(height - 1, y + k) - top + 1) * stride;  // its last row
    const std::uint16_t* v = image + y * width;
    const std::uint8_t* valid = mask + y * width;
    std::uint8_t* out = signal + y * width;
    for (long i = 0; i < width; ++i) {
      if (!valid[i] || !(v[i] > s.threshold)) {  // cannot be signal: skip the table
        out[i] = 0;
        continue;
      }
      const long left = std::max(0L, i - k), right = std::min(width - 1, i + k) + 1;
      const SatEntry &a = upper[left], &b = upper[right], &c = lower[left], &d = lower[right];
      const std::uint32_t m = d.m - b.m - c.m + a.m;
      const std::uint32_t x = d.x - b.x - c.x + a.x;
      const std::uint64_t yy = d.y - b.y - c.y + a.y;
      out[i] = test(m, x, yy, v[i]);
    }
  }
}

}  // namespace ladder::spot_finding
