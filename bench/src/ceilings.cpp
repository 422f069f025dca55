#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "ladder/harness.hpp"

namespace ladder {

double measure_host_bandwidth() {
  const std::size_t n = std::size_t{32} << 20;  // 3 arrays of 128 MiB
  std::unique_ptr<float[]> a(new float[n]), b(new float[n]), c(new float[n]);
  const long count = static_cast<long>(n);
  // First touch in parallel, so pages land near the threads that use them.
#pragma omp parallel for schedule(static)
  for (long i = 0; i < count; ++i) a[i] = 1.0f, b[i] = 2.0f, c[i] = 0.0f;
  double best = 1e30;
  for (int pass = 0; pass < 6; ++pass) {
    auto start = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static)
    for (long i = 0; i < count; ++i) c[i] = a[i] + b[i];
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (pass > 0) best = std::min(best, seconds);  // the first pass warms up
  }
  return 12.0 * n / best;
}

}  // namespace ladder
