// The stand-alone loop of this experiment: the serial rung's row function on
// an 8x1024x1024 float32 stack, 21 passes. Built from the repository root with
// g++ -O3 -DNDEBUG -std=c++20 -Ibench/include -I. drv.cpp -o drv
#include "solutions/median_filter/selection_network.hpp"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
using namespace ladder::median_filter;
int main(int argc, char** argv) {
  int k = argc > 1 ? atoi(argv[1]) : 3;
  Stack stack{8, 1024, 1024};
  size_t n = stack.frames * stack.frame_pixels();
  float* in = (float*)aligned_alloc(64, n * 4); float* out = (float*)aligned_alloc(64, n * 4);
  unsigned s = 1; for (size_t i = 0; i < n; ++i) { s = s * 1664525u + 1013904223u; in[i] = float(s >> 8); out[i] = 0; }
  Settings settings; settings.size = k;
  const Networks& net = networks_for(k);
  SelectionNetworkFilter<float> filter(in, out, stack, settings, net);
  SelectionNetworkFilter<float>::Scratch scratch;
  double best = 1e9; std::vector<double> ts;
  for (int r = 0; r < 21; ++r) {
    auto t = std::chrono::steady_clock::now();
    for (size_t f = 0; f < stack.frames; ++f) for (long y = 0; y < 1024; ++y) filter.row(f, y, scratch);
    double d = std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    ts.push_back(d);
  }
  std::sort(ts.begin(), ts.end());
  printf("k=%d median %.2f ms best %.2f ms  (check %f)\n", k, ts[10] * 1e3, ts[0] * 1e3, out[12345]);
}
