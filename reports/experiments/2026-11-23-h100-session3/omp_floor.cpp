// What a parallel loop over 1024 rows costs when the rows do nothing: the
// floor under polygon_mask's openmp rung at the workshop size (1024 rows,
// schedule(static, 4)). Built and run on the H100 host by
//   g++ -O2 -fopenmp omp_floor.cpp -o omp_floor && ./omp_floor
// Prints the median and minimum of 20000 timed loops per thread count.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

int main() {
  for (int threads : {1, 2, 4, 8, 16}) {
    omp_set_num_threads(threads);
    std::vector<double> times;
    for (int repetition = 0; repetition < 20000; ++repetition) {
      const auto start = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static, 4)
      for (int row = 0; row < 1024; ++row) asm volatile("" ::"r"(row));  // an empty row the compiler keeps
      times.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    std::printf("threads %2d: empty parallel loop over 1024 rows: median %.2f us, min %.2f us\n", threads,
                times[times.size() / 2], times.front());
  }
}
