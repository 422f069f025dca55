// openmp_target: the openmp rung's privatisation, one level up. On the GPU a
// team (a thread block) keeps its own 256 counts, declared inside the
// `teams` region, so that clang places them in the team's shared memory;
// the team's threads count into them with atomics, then add them to the
// global counts with one atomic per bin. The opencl rung's idea, written
// as directives.
#include <cstdint>

#include "ladder/openmp_target.hpp"

namespace ladder {
namespace {

constexpr int kBins = 256;

class OpenMpTargetHistogram final : public OpenMpTargetRung {
 public:
  explicit OpenMpTargetHistogram(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    values_ = inputs.at("values").view<std::uint8_t>().data();
    n_ = static_cast<long>(inputs.at("values").size());
    counts_ = outputs.at("counts").view<std::uint32_t>().data();
    require_device_memory(n_ + sizeof(std::uint32_t) * kBins);
#pragma omp target enter data map(alloc : values_[0 : n_], counts_[0 : kBins])
  }

  void upload() override {
#pragma omp target update to(values_[0 : n_])
  }

  void compute() override {
    const std::uint8_t* values = values_;
    std::uint32_t* counts = counts_;
    const long n = n_;
    // A region of its own: the teams below start adding before all are running.
#pragma omp target teams distribute parallel for
    for (int bin = 0; bin < kBins; ++bin) counts[bin] = 0;

    const int teams = teams_here(kTeams), threads = threads_here(kThreads);
#pragma omp target teams num_teams(teams) thread_limit(threads)
    {
      std::uint32_t team_counts[kBins];  // one per team: its shared memory
#pragma omp parallel for
      for (int bin = 0; bin < kBins; ++bin) team_counts[bin] = 0;
      // Each team a contiguous share of the values. (Blocks of kThreads
      // values dealt to the teams in turn, dist_schedule(static, kThreads),
      // took 1.8 times as long on the H200.)
#pragma omp distribute parallel for
      for (long i = 0; i < n; ++i) {
#pragma omp atomic update
        team_counts[values[i]] += 1u;
      }
#pragma omp parallel for
      for (int bin = 0; bin < kBins; ++bin) {
#pragma omp atomic update
        counts[bin] += team_counts[bin];
      }
    }
  }

  void download() override {
#pragma omp target update from(counts_[0 : kBins])
  }

  ~OpenMpTargetHistogram() override {
    if (counts_ != nullptr) {
#pragma omp target exit data map(delete : values_[0 : n_], counts_[0 : kBins])
    }
  }

 private:
  // 4 teams of 256 threads for each of the H100's and H200's 132 SMs: the
  // merge is paid once per team, and enough threads are resident to keep
  // the loads in flight.
  static constexpr int kTeams = 4 * 132;
  static constexpr int kThreads = 256;
  const std::uint8_t* values_ = nullptr;
  long n_ = 0;
  std::uint32_t* counts_ = nullptr;
};

}  // namespace
LADDER_REGISTER_RUNG(histogram, openmp_target, OpenMpTargetHistogram);
}  // namespace ladder
