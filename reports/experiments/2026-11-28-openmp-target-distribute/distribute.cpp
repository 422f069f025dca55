// Does clang 16's default distribute chunk cost the openmp_target rungs
// their bandwidth? Its PTX for `target teams distribute parallel for`
// re-enters the parallel region (three bar.sync) for every chunk of
// blockDim iterations: one element a thread between barriers. With
// dist_schedule(static) each team gets one contiguous block and enters
// the parallel region once. Each variant timed as 50 target regions on the
// host clock after a warm-up (median), as the harness times compute.
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <vector>

extern "C" void cuda_start();
extern "C" void cuda_vector_add(const float* a, const float* b, float* c, long n);

// The cuda rung's float4, by directives: a struct of four floats, 16-byte
// aligned, so that clang loads it as one ld.global.v4.f32.
struct alignas(16) Quad {
  float x, y, z, w;
};

template <class F>
double median_seconds(F&& region) {
  for (int i = 0; i < 20; ++i) region();
  std::vector<double> times;
  for (int i = 0; i < 50; ++i) {
    const double start = omp_get_wtime();
    region();
    times.push_back(omp_get_wtime() - start);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

void vector_add(long n) {
  std::vector<float> a(n, 1.0f), b(n, 2.0f), c(n, 0.0f);
  float *pa = a.data(), *pb = b.data(), *pc = c.data();
#pragma omp target enter data map(to : pa[0 : n], pb[0 : n]) map(alloc : pc[0 : n])
  const double bytes = 12.0 * n;
  auto report = [&](const char* name, double s) {
    std::printf("vector_add n=%ld %-46s %9.1f us %7.0f GB/s\n", n, name, s * 1e6, bytes / s / 1e9);
  };
  // Warm the GPU to its clocks: two seconds of the default loop.
  for (double start = omp_get_wtime(); omp_get_wtime() - start < 2.0;) {
#pragma omp target teams distribute parallel for
    for (long i = 0; i < n; ++i) pc[i] = pa[i] + pb[i];
  }
  report("default (the rung)", median_seconds([&] {
#pragma omp target teams distribute parallel for
    for (long i = 0; i < n; ++i) pc[i] = pa[i] + pb[i];
  }));
  report("dist_schedule(static)", median_seconds([&] {
#pragma omp target teams distribute parallel for dist_schedule(static)
    for (long i = 0; i < n; ++i) pc[i] = pa[i] + pb[i];
  }));
  report("dist_schedule(static) thread_limit(256)", median_seconds([&] {
#pragma omp target teams distribute parallel for dist_schedule(static) thread_limit(256)
    for (long i = 0; i < n; ++i) pc[i] = pa[i] + pb[i];
  }));
  report("dist_schedule(static) thread_limit(1024)", median_seconds([&] {
#pragma omp target teams distribute parallel for dist_schedule(static) thread_limit(1024)
    for (long i = 0; i < n; ++i) pc[i] = pa[i] + pb[i];
  }));
  const int sms = 132;
  report("dist_schedule(static) num_teams(8*132) t(256)", median_seconds([&] {
#pragma omp target teams distribute parallel for dist_schedule(static) num_teams(8 * sms) thread_limit(256)
    for (long i = 0; i < n; ++i) pc[i] = pa[i] + pb[i];
  }));
  report("dist_schedule(static, 4096)", median_seconds([&] {
#pragma omp target teams distribute parallel for dist_schedule(static, 4096)
    for (long i = 0; i < n; ++i) pc[i] = pa[i] + pb[i];
  }));
  report("dist_schedule(static, 65536)", median_seconds([&] {
#pragma omp target teams distribute parallel for dist_schedule(static, 65536)
    for (long i = 0; i < n; ++i) pc[i] = pa[i] + pb[i];
  }));
  report("dist_schedule(static) int index", median_seconds([&] {
    const int m = static_cast<int>(n);
#pragma omp target teams distribute parallel for dist_schedule(static)
    for (int i = 0; i < m; ++i) pc[i] = pa[i] + pb[i];
  }));
  report("dist_schedule(static) simd", median_seconds([&] {
#pragma omp target teams distribute parallel for simd dist_schedule(static)
    for (long i = 0; i < n; ++i) pc[i] = pa[i] + pb[i];
  }));
  const long groups = (n + 3) / 4;
  auto quads = [&] {
#pragma omp target teams distribute parallel for
    for (long g = 0; g < groups; ++g) {
      if (4 * g + 3 < n) {
        const Quad x = reinterpret_cast<const Quad*>(pa)[g];
        const Quad y = reinterpret_cast<const Quad*>(pb)[g];
        reinterpret_cast<Quad*>(pc)[g] = Quad{x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w};
      } else {
        for (long i = 4 * g; i < n; ++i) pc[i] = pa[i] + pb[i];
      }
    }
  };
  report("quads (float4 by a struct)", median_seconds(quads));
  report("quads dist_schedule(static, 1024)", median_seconds([&] {
#pragma omp target teams distribute parallel for dist_schedule(static, 1024)
    for (long g = 0; g < groups; ++g) {
      if (4 * g + 3 < n) {
        const Quad x = reinterpret_cast<const Quad*>(pa)[g];
        const Quad y = reinterpret_cast<const Quad*>(pb)[g];
        reinterpret_cast<Quad*>(pc)[g] = Quad{x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w};
      } else {
        for (long i = 4 * g; i < n; ++i) pc[i] = pa[i] + pb[i];
      }
    }
  }));
  report("quads thread_limit(256)", median_seconds([&] {
#pragma omp target teams distribute parallel for thread_limit(256)
    for (long g = 0; g < groups; ++g) {
      if (4 * g + 3 < n) {
        const Quad x = reinterpret_cast<const Quad*>(pa)[g];
        const Quad y = reinterpret_cast<const Quad*>(pb)[g];
        reinterpret_cast<Quad*>(pc)[g] = Quad{x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w};
      } else {
        for (long i = 4 * g; i < n; ++i) pc[i] = pa[i] + pb[i];
      }
    }
  }));
  report("quads num_teams(groups/256) thread_limit(256)", median_seconds([&] {
    const long teams = (groups + 255) / 256;
#pragma omp target teams distribute parallel for num_teams(teams) thread_limit(256)
    for (long g = 0; g < groups; ++g) {
      if (4 * g + 3 < n) {
        const Quad x = reinterpret_cast<const Quad*>(pa)[g];
        const Quad y = reinterpret_cast<const Quad*>(pb)[g];
        reinterpret_cast<Quad*>(pc)[g] = Quad{x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w};
      } else {
        for (long i = 4 * g; i < n; ++i) pc[i] = pa[i] + pb[i];
      }
    }
  }));
  float* da = nullptr;
  float* db = nullptr;
  float* dc = nullptr;
#pragma omp target data use_device_ptr(pa, pb, pc)
  {
    da = pa;
    db = pb;
    dc = pc;
  }
  report("cuda kernel (float4, the cuda rung's)", median_seconds([&] { cuda_vector_add(da, db, dc, n); }));
  report("empty region (launch)", median_seconds([&] {
#pragma omp target
    {
    }
  }));
  quads();  // its output checked
#pragma omp target update from(pc[0 : n])
  long wrong = 0;
  for (long i = 0; i < n; ++i) wrong += c[i] != 3.0f;
  std::printf("vector_add n=%ld wrong elements: %ld\n", n, wrong);
#pragma omp target exit data map(delete : pa[0 : n], pb[0 : n], pc[0 : n])
}

// The convolution rung's loop: a 15 x 15 kernel over a square image, the
// image's edges in the loop limits (zero outside).
void convolution(long side) {
  const long radius = 7, width = 2 * radius + 1;
  std::vector<float> image(side * side, 1.0f), out(side * side, 0.0f), kernel(width * width, 1.0f / (width * width));
  float *pi = image.data(), *po = out.data(), *pk = kernel.data();
  const long pixels = side * side, taps = width * width;
#pragma omp target enter data map(to : pi[0 : pixels], pk[0 : taps]) map(alloc : po[0 : pixels])
  auto report = [&](const char* name, double s) {
    std::printf("convolution %ld^2 %-44s %9.1f us %7.2f TFLOP/s\n", side, name, s * 1e6,
                2.0 * pixels * taps / s / 1e12);
  };
  report("collapse(2) default (the rung)", median_seconds([&] {
#pragma omp target teams distribute parallel for collapse(2)
    for (long y = 0; y < side; ++y)
      for (long x = 0; x < side; ++x) {
        const long y0 = std::max(0L, y - radius), y1 = std::min(side - 1, y + radius);
        const long x0 = std::max(0L, x - radius), x1 = std::min(side - 1, x + radius);
        float sum = 0;
        for (long v = y0; v <= y1; ++v)
          for (long u = x0; u <= x1; ++u) sum += pk[(v - y + radius) * width + (u - x + radius)] * pi[v * side + u];
        po[y * side + x] = sum;
      }
  }));
  report("collapse(2) dist_schedule(static)", median_seconds([&] {
#pragma omp target teams distribute parallel for collapse(2) dist_schedule(static)
    for (long y = 0; y < side; ++y)
      for (long x = 0; x < side; ++x) {
        const long y0 = std::max(0L, y - radius), y1 = std::min(side - 1, y + radius);
        const long x0 = std::max(0L, x - radius), x1 = std::min(side - 1, x + radius);
        float sum = 0;
        for (long v = y0; v <= y1; ++v)
          for (long u = x0; u <= x1; ++u) sum += pk[(v - y + radius) * width + (u - x + radius)] * pi[v * side + u];
        po[y * side + x] = sum;
      }
  }));
#pragma omp target update from(po[0 : pixels])
  std::printf("convolution %ld^2 centre %.4f (1 expected)\n", side, out[(side / 2) * side + side / 2]);
#pragma omp target exit data map(delete : pi[0 : pixels], pk[0 : taps], po[0 : pixels])
}

int main() {
  cuda_start();
  std::printf("devices: %d\n", omp_get_num_devices());
  vector_add(1L << 24);
  vector_add(1L << 27);
  convolution(2048);
  convolution(8192);
}
