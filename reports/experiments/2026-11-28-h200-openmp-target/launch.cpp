// What the openmp_target rungs' gap to CUDA is made of: the same loops with
// other launch clauses, each timed as 20 target regions on the host after
// a warm-up (the harness's host clock). Run with LIBOMPTARGET_INFO=16 to
// see each launch's blocks and threads.
#include <omp.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

template <class F>
double best_seconds(F&& region) {
  region();
  double best = 1e9;
  for (int i = 0; i < 20; ++i) {
    const double start = omp_get_wtime();
    region();
    const double t = omp_get_wtime() - start;
    best = t < best ? t : best;
  }
  return best;
}

void vector_add(long n) {
  std::vector<float> a(n, 1.0f), b(n, 2.0f), c(n, 0.0f);
  float *pa = a.data(), *pb = b.data(), *pc = c.data();
#pragma omp target enter data map(to : pa[0 : n], pb[0 : n]) map(alloc : pc[0 : n])
  const double bytes = 12.0 * n;
  auto report = [&](const char* name, double s) { std::printf("vector_add n=%ld %-44s %9.1f us %7.0f GB/s\n", n, name, s * 1e6, bytes / s / 1e9); };
  report("default", best_seconds([&] {
#pragma omp target teams distribute parallel for
    for (long i = 0; i < n; ++i) pc[i] = pa[i] + pb[i];
  }));
  report("thread_limit(256)", best_seconds([&] {
#pragma omp target teams distribute parallel for thread_limit(256)
    for (long i = 0; i < n; ++i) pc[i] = pa[i] + pb[i];
  }));
  report("thread_limit(1024)", best_seconds([&] {
#pragma omp target teams distribute parallel for thread_limit(1024)
    for (long i = 0; i < n; ++i) pc[i] = pa[i] + pb[i];
  }));
  const long teams = (n + 255) / 256;
  report("num_teams(n/256) thread_limit(256)", best_seconds([&] {
#pragma omp target teams distribute parallel for num_teams(teams) thread_limit(256)
    for (long i = 0; i < n; ++i) pc[i] = pa[i] + pb[i];
  }));
  report("int index, thread_limit(256)", best_seconds([&] {
    const int m = static_cast<int>(n);
#pragma omp target teams distribute parallel for thread_limit(256)
    for (int i = 0; i < m; ++i) pc[i] = pa[i] + pb[i];
  }));
  report("empty region (launch)", best_seconds([&] {
#pragma omp target
    {
    }
  }));
#pragma omp target exit data map(delete : pa[0 : n], pb[0 : n], pc[0 : n])
}

void histogram(long n) {
  std::vector<std::uint8_t> v(n);
  std::mt19937 random(1);
  for (auto& x : v) x = static_cast<std::uint8_t>(random());
  std::uint32_t counts[256];
  std::uint8_t* pv = v.data();
#pragma omp target enter data map(to : pv[0 : n]) map(alloc : counts[0 : 256])
  auto report = [&](const char* name, double s) { std::printf("histogram n=%ld %-45s %9.1f us %7.0f GB/s\n", n, name, s * 1e6, n / s / 1e9); };
  constexpr int kTeams = 4 * 132, kThreads = 256;
  report("team counts, contiguous chunks (the rung)", best_seconds([&] {
#pragma omp target teams distribute parallel for
    for (int b = 0; b < 256; ++b) counts[b] = 0;
#pragma omp target teams num_teams(kTeams) thread_limit(kThreads)
    {
      std::uint32_t team_counts[256];
#pragma omp parallel for
      for (int b = 0; b < 256; ++b) team_counts[b] = 0;
#pragma omp distribute parallel for
      for (long i = 0; i < n; ++i) {
#pragma omp atomic update
        team_counts[pv[i]] += 1u;
      }
#pragma omp parallel for
      for (int b = 0; b < 256; ++b) {
#pragma omp atomic update
        counts[b] += team_counts[b];
      }
    }
  }));
  report("team counts, dist_schedule(static, 256)", best_seconds([&] {
#pragma omp target teams distribute parallel for
    for (int b = 0; b < 256; ++b) counts[b] = 0;
#pragma omp target teams num_teams(kTeams) thread_limit(kThreads)
    {
      std::uint32_t team_counts[256];
#pragma omp parallel for
      for (int b = 0; b < 256; ++b) team_counts[b] = 0;
#pragma omp distribute parallel for dist_schedule(static, kThreads)
      for (long i = 0; i < n; ++i) {
#pragma omp atomic update
        team_counts[pv[i]] += 1u;
      }
#pragma omp parallel for
      for (int b = 0; b < 256; ++b) {
#pragma omp atomic update
        counts[b] += team_counts[b];
      }
    }
  }));
  report("global atomics (cuda_atomics' way)", best_seconds([&] {
#pragma omp target teams distribute parallel for
    for (int b = 0; b < 256; ++b) counts[b] = 0;
#pragma omp target teams distribute parallel for
    for (long i = 0; i < n; ++i) {
#pragma omp atomic update
      counts[pv[i]] += 1u;
    }
  }));
  report("zeroing region alone", best_seconds([&] {
#pragma omp target teams distribute parallel for
    for (int b = 0; b < 256; ++b) counts[b] = 0;
  }));
#pragma omp target exit data map(delete : pv[0 : n], counts[0 : 256])
}

int main() {
  std::printf("devices: %d\n", omp_get_num_devices());
  for (long n : {1L << 24, 1L << 27}) vector_add(n);
  for (long n : {1L << 24, 1L << 28}) histogram(n);
}
