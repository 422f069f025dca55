// openmp_target_quads: the openmp_target rung told what the cuda rung's
// kernel does. Two changes to its loop, each measured on an H200 (README):
//
// - Four floats a thread, loaded as one 16-byte struct: clang makes it one
//   ld.global.v4.f32, the cuda rung's float4. One float a thread keeps too
//   few bytes in flight to fill the memory system.
// - One team of 256 threads per 256 quads (num_teams, thread_limit), the
//   cuda rung's launch: each team runs its one chunk. Left to itself clang
//   launches 3200 teams of 128 that go round the array, re-entering the
//   parallel region (three barriers) for every 128 iterations.
//
// The maps, updates and the rest are openmp_target.cpp's.
#include <algorithm>

#include "ladder/openmp_target.hpp"

namespace ladder {
namespace {

// Four floats aligned as CUDA's float4 is, so that a copy is one 16-byte load.
struct alignas(16) Quad {
  float x, y, z, w;
};

class OpenMpTargetQuadsVectorAdd final : public OpenMpTargetRung {
 public:
  explicit OpenMpTargetQuadsVectorAdd(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    a_ = inputs.at("a").view<float>().data();
    b_ = inputs.at("b").view<float>().data();
    c_ = outputs.at("c").view<float>().data();
    n_ = static_cast<long>(outputs.at("c").size());
    require_device_memory(3 * sizeof(float) * n_);
#pragma omp target enter data map(alloc : a_ [0:n_], b_ [0:n_], c_ [0:n_])
  }

  void upload() override {
#pragma omp target update to(a_ [0:n_], b_ [0:n_])
  }

  void compute() override {
    const float* a = a_;  // locals, not members: openmp_target.cpp says why
    const float* b = b_;
    float* c = c_;
    const long n = n_;
    const long quads = (n + 3) / 4;
    const int teams = teams_here(static_cast<int>(std::max(1L, (quads + kThreads - 1) / kThreads)));
    const int threads = threads_here(kThreads);
    // The arrays start on a page (the harness's) and on the device where
    // the map allocated them (256 bytes), so each Quad is 16-byte aligned.
#pragma omp target teams distribute parallel for num_teams(teams) thread_limit(threads)
    for (long q = 0; q < quads; ++q) {
      if (4 * q + 3 < n) {
        const Quad x = reinterpret_cast<const Quad*>(a)[q];
        const Quad y = reinterpret_cast<const Quad*>(b)[q];
        reinterpret_cast<Quad*>(c)[q] = Quad{x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w};
      } else {
        for (long i = 4 * q; i < n; ++i) c[i] = a[i] + b[i];  // the last one to three
      }
    }
  }

  void download() override {
#pragma omp target update from(c_ [0:n_])
  }

  ~OpenMpTargetQuadsVectorAdd() override {
    if (c_ != nullptr) {
#pragma omp target exit data map(delete : a_ [0:n_], b_ [0:n_], c_ [0:n_])
    }
  }

 private:
  static constexpr int kThreads = 256;  // the cuda rung's block
  const float* a_ = nullptr;
  const float* b_ = nullptr;
  float* c_ = nullptr;
  long n_ = 0;
};

}  // namespace
LADDER_REGISTER_RUNG(vector_add, openmp_target_quads, OpenMpTargetQuadsVectorAdd);
}  // namespace ladder
