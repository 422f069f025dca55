// openmp: each thread counts its own chunk into private sub-histograms (the
// serial rung's four copies), then adds them to the shared counts with 256
// atomic adds. No shared counter is touched while counting: no contention.
#include <omp.h>

#include <algorithm>
#include <array>

#include "ladder/registry.hpp"

namespace ladder {
namespace {

constexpr std::size_t kCopies = 4;

class OpenMpHistogram final : public OpenMpRung {
 public:
  explicit OpenMpHistogram(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    values_ = inputs.at("values").view<std::uint8_t>().data();
    n_ = inputs.at("values").size();
    counts_ = outputs.at("counts").view<std::uint32_t>().data();
  }

  void compute() override {
    std::uint32_t* counts = counts_;
    std::fill(counts, counts + 256, 0u);
#pragma omp parallel
    {
      // The same chunks as the generator's schedule(static) first touch.
      const std::size_t threads = static_cast<std::size_t>(omp_get_num_threads());
      const std::size_t thread = static_cast<std::size_t>(omp_get_thread_num());
      const std::uint8_t* values = values_ + n_ * thread / threads;
      const std::size_t n = n_ * (thread + 1) / threads - n_ * thread / threads;

      std::array<std::array<std::uint32_t, 256>, kCopies> copies{};
      std::size_t i = 0;
      for (; i + kCopies <= n; i += kCopies) {
        copies[0][values[i]]++;
        copies[1][values[i + 1]]++;
        copies[2][values[i + 2]]++;
        copies[3][values[i + 3]]++;
      }
      for (; i < n; ++i) copies[0][values[i]]++;

      for (std::size_t bin = 0; bin < 256; ++bin) {
        const std::uint32_t sum = copies[0][bin] + copies[1][bin] + copies[2][bin] + copies[3][bin];
#pragma omp atomic
        counts[bin] += sum;
      }
    }
  }

 private:
  const std::uint8_t* values_ = nullptr;
  std::size_t n_ = 0;
  std::uint32_t* counts_ = nullptr;
};

}  // namespace
LADDER_REGISTER_RUNG(histogram, openmp, OpenMpHistogram);
}  // namespace ladder
