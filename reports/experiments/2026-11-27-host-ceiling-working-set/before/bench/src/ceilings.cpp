// The host memory bandwidth ceiling, measured as STREAM measures it
// (McCalpin): arrays far larger than the caches, first touched by the
// threads that use them, every thread, the best of several passes, and the
// best of the kernels copy, add and triad, counted in bytes read + written
// as the rungs count theirs. On x86 an add with non-temporal stores joins
// them: a plain store first reads the line it writes (write-allocate), so a
// library or runtime that streams its stores (PoCL's vectoriser may) moves
// the same counted bytes with a quarter less traffic. A rung above 100 % of
// the ceiling means the ceiling is wrong, not the rung.
#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <memory>
#include <numeric>
#include <vector>

#ifdef __SSE2__
#include <immintrin.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

#include "ladder/harness.hpp"
#include "ladder/widest_vectors.hpp"

namespace ladder {
namespace {

double seconds_of(const std::chrono::steady_clock::time_point& start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// STREAM's kernels on float arrays, as the host ceiling runs them.
struct StreamKernel {
  const char* name;
  double bytes_per_element;
  void (*run)(float*, float*, float*, long, float);
};
const StreamKernel kStreamKernels[] = {
    {"copy", 8, [](float* a, float*, float* c, long n, float) {
#pragma omp parallel for schedule(static)
       for (long i = 0; i < n; ++i) c[i] = a[i];
     }},
    {"add", 12, [](float* a, float* b, float* c, long n, float) {
#pragma omp parallel for schedule(static)
       for (long i = 0; i < n; ++i) c[i] = a[i] + b[i];
     }},
    {"triad", 12, [](float* a, float* b, float* c, long n, float s) {
#pragma omp parallel for schedule(static)
       for (long i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
     }},
#ifdef __SSE2__
    {"add, non-temporal stores", 12, [](float* a, float* b, float* c, long n, float) {
#pragma omp parallel for schedule(static)
       for (long block = 0; block < n / 4; ++block)
         _mm_stream_ps(c + 4 * block, _mm_add_ps(_mm_load_ps(a + 4 * block), _mm_load_ps(b + 4 * block)));
       _mm_sfence();
     }},
#endif
};

}  // namespace

HostBandwidth measure_host_bandwidth() {
  const std::size_t n = std::size_t{32} << 20;  // 3 arrays of 128 MiB
  const long count = static_cast<long>(n);
  // 64-byte aligned, so that blocks of 4 floats can be streamed.
  using Buffer = std::unique_ptr<float[], void (*)(void*)>;
  auto allocate = [&] { return Buffer(static_cast<float*>(std::aligned_alloc(64, n * sizeof(float))), std::free); };
  auto a = allocate(), b = allocate(), c = allocate();
  if (!a || !b || !c) return {};
  // First touch by the same static schedule as the kernels, so each page
  // lands near the thread that will use it.
#pragma omp parallel for schedule(static)
  for (long i = 0; i < count; ++i) a[i] = 1.0f, b[i] = 2.0f, c[i] = 0.0f;

  float* pa = a.get();
  float* pb = b.get();
  float* pc = c.get();
  const float scalar = 3.0f;
  constexpr int kPasses = 10;  // STREAM's default; the first of each kernel warms up
  HostBandwidth result;
  for (const auto& kernel : kStreamKernels) {
    std::vector<double> rates;
    for (int pass = 0; pass < kPasses; ++pass) {
      auto start = std::chrono::steady_clock::now();
      kernel.run(pa, pb, pc, count, scalar);
      double seconds = seconds_of(start);
      if (pass > 0) rates.push_back(kernel.bytes_per_element * n / seconds);
    }
    double best = *std::max_element(rates.begin(), rates.end());
    double median = summarise(rates).median;
    result.kernels[kernel.name] = best;
    if (best > result.bytes_per_s) {
      result.bytes_per_s = best;
      result.kernel = kernel.name;
      result.best_over_median = best / median;
    }
  }
  return result;
}

namespace {

// Five timings of work(), after one to warm up.
template <typename Work>
std::vector<double> five_timings(Work&& work) {
  std::vector<double> seconds;
  work();
  for (int i = 0; i < 5; ++i) {
    auto start = std::chrono::steady_clock::now();
    work();
    seconds.push_back(seconds_of(start));
  }
  return seconds;
}
// The median: one interruption does not move it.
template <typename Work>
double median_of_five(Work&& work) {
  return summarise(five_timings(work)).median;
}
// The best, for a ceiling (as STREAM takes its best pass): what the machine
// can do, not what a neighbour let it do.
template <typename Work>
double best_of_five(Work&& work) {
  const std::vector<double> seconds = five_timings(work);
  return *std::min_element(seconds.begin(), seconds.end());
}

}  // namespace

int openmp_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

HostScaling measure_host_scaling() {
  HostScaling scaling;
  scaling.threads = openmp_threads();
  volatile double sink = 0;  // keeps the work from being optimised away
  // The clock: the machine probe's chain of dependent multiply-adds, on
  // every thread at once. Each step waits for the one before, so a core's
  // other hardware thread does not slow it; a lower all-core clock does.
  auto chains = [&sink](int threads) {
    std::uint64_t total = 0;
#pragma omp parallel num_threads(threads) reduction(+ : total)
    {
      std::uint64_t x = static_cast<std::uint64_t>(sink) + 1;
      for (int i = 0; i < (1 << 22); ++i) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      total += x;
    }
    sink = static_cast<double>(total);
  };
  scaling.clock_efficiency = best_of_five([&] { chains(1); }) / best_of_five([&] { chains(scaling.threads); });
  // Compute: every thread multiply-adds its own 1024 floats (4 KiB, in its
  // L1 cache) 2^16 times (a few milliseconds). The lanes are independent, so the time is the
  // core's vector throughput, and every thread does the same work: on an
  // ideal machine the time does not change with the thread count.
  auto multiply_adds = [&sink](int threads) {
    double total = 0;
#pragma omp parallel num_threads(threads) reduction(+ : total)
    {
      alignas(64) float x[1024];
      for (int i = 0; i < 1024; ++i) x[i] = static_cast<float>(i) * 1e-3f;
      for (int repeat = 0; repeat < (1 << 16); ++repeat)
#pragma omp simd
        for (int i = 0; i < 1024; ++i) x[i] = x[i] * 0.999f + 0.001f;
      for (float value : x) total += value;
    }
    sink = total;
  };
  scaling.compute_efficiency =
      best_of_five([&] { multiply_adds(1); }) / best_of_five([&] { multiply_adds(scaling.threads); });

  // Memory: summing 128 MiB, far larger than the caches, split between the
  // threads (first touched by the same split, so each page is near its reader).
  const long count = long{16} << 20;
  std::unique_ptr<std::uint64_t[]> data(new std::uint64_t[static_cast<std::size_t>(count)]);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < count; ++i) data[i] = static_cast<std::uint64_t>(i);
  auto sum = [&](int threads) {
    std::uint64_t total = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : total)
    for (long i = 0; i < count; ++i) total += data[i];
    sink = static_cast<double>(total);
  };
  scaling.memory_speedup = best_of_five([&] { sum(1); }) / best_of_five([&] { sum(scaling.threads); });
  return scaling;
}

namespace {

constexpr int kFp32Lanes = 256;          // 16 AVX-512 registers of 16 floats: 8 FMAs in flight on each of two units
constexpr long kFp32Repeats = 1L << 16;  // ~0.2 ms a thread at AVX-512's peak, ~1 ms with SSE2

// One thread's share of the FP32 rate: kFp32Repeats multiply-adds on each
// of kFp32Lanes independent floats. Fully unrolled, the lanes stay in
// registers: no load or store between two multiply-adds. Compiled for the
// widest vector unit, as the rungs' hot loops that use it are.
LADDER_WIDEST_VECTORS float multiply_add_lanes(float seed) {
  float lanes[kFp32Lanes];
  for (int i = 0; i < kFp32Lanes; ++i) lanes[i] = seed + static_cast<float>(i) * 1e-3f;
  for (long repeat = 0; repeat < kFp32Repeats; ++repeat) {
#pragma GCC unroll 256
    for (int i = 0; i < kFp32Lanes; ++i) lanes[i] = lanes[i] * 0.999f + 0.001f;
  }
  float total = 0;
  for (float lane : lanes) total += lane;
  return total;
}

}  // namespace

double measure_host_fp32_rate() {
  const int threads = openmp_threads();
  volatile float sink = 0;  // keeps the work from being optimised away
  auto multiply_adds = [&] {
    float total = 0;
#pragma omp parallel num_threads(threads) reduction(+ : total)
    total += multiply_add_lanes(static_cast<float>(sink));
    sink = total;
  };
  // 20 ms of the same work first: an idle core may take that long to reach
  // its full clock. Then the best of at least five timings and 50 ms: on a
  // shared virtual machine a neighbour takes the cores for milliseconds at
  // a time (on the development machine, the best of five alone ranged
  // from 177 to 316 GFLOP/s over six runs; this, from 317 to 355).
  const auto start = std::chrono::steady_clock::now();
  while (seconds_of(start) < 0.02) multiply_adds();
  double best = 0;
  for (int timings = 0; timings < 5 || seconds_of(start) < 0.07; ++timings) {
    const auto one = std::chrono::steady_clock::now();
    multiply_adds();
    const double seconds = seconds_of(one);
    if (timings == 0 || seconds < best) best = seconds;
  }
  return 2.0 * kFp32Lanes * kFp32Repeats * threads / best;
}

// The machine probe: the same small piece of one-thread work in every run,
// so that two runs can say how fast their machines were (see harness.hpp).
MachineProbe probe_machine() {
  // A chain of dependent 64-bit multiply-adds (an LCG): each step waits for
  // the last, so its time is clock cycles, whatever the memory does.
  volatile std::uint64_t seed = 1;
  auto scalar_chain = [&seed] {
    std::uint64_t x = seed;
    for (int i = 0; i < (1 << 22); ++i) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    seed = x;  // keeps the chain from being optimised away
  };
  // One pass summing 64 MiB, larger than any cache here: what one thread
  // gets from the memory system.
  std::vector<std::uint64_t> data(std::size_t{8} << 20, 1);
  volatile std::uint64_t sink = 0;
  auto memory_pass = [&] { sink = std::accumulate(data.begin(), data.end(), std::uint64_t{0}); };
  MachineProbe probe;
  probe.scalar_s = median_of_five(scalar_chain);
  probe.memory_s = median_of_five(memory_pass);
  return probe;
}

CpuTicks read_cpu_ticks() {
  // "cpu  user nice system idle iowait irq softirq steal ...", all cores.
  std::ifstream in("/proc/stat");
  std::string label;
  double field[8] = {};
  if (!(in >> label) || label != "cpu") return {};
  for (double& value : field)
    if (!(in >> value)) return {};
  CpuTicks ticks;
  ticks.steal = field[7];
  ticks.total = std::accumulate(field, field + 8, 0.0);
  return ticks;
}

bool adopt_cuda_bandwidth_of_the_same_gpu(DeviceCeilings& opencl, const DeviceCeilings& cuda) {
  if (cuda.device.empty() || !opencl.device.starts_with(cuda.device + " (") ||
      cuda.copy_bytes_per_s <= opencl.copy_bytes_per_s)
    return false;
  opencl.copy_bytes_per_s = cuda.copy_bytes_per_s;
  opencl.bandwidth_kernel = "CUDA's " + cuda.bandwidth_kernel + ", the same GPU";
  return true;
}

}  // namespace ladder
