// serial: four interleaved sub-histograms (value i in copy i % 4), summed at
// the end. Four equal values in a row now increment four counters, so the
// increments overlap instead of queueing on one store-to-load chain.
#include <array>

#include "ladder/registry.hpp"

namespace ladder {
namespace {

constexpr std::size_t kCopies = 4;

class SerialHistogram final : public HostRung {
 public:
  explicit SerialHistogram(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    values_ = inputs.at("values").view<std::uint8_t>().data();
    n_ = inputs.at("values").size();
    counts_ = outputs.at("counts").view<std::uint32_t>().data();
  }

  void compute() override {
    std::array<std::array<std::uint32_t, 256>, kCopies> copies{};
    const std::uint8_t* values = values_;
    std::size_t i = 0;
    for (; i + kCopies <= n_; i += kCopies) {
      copies[0][values[i]]++;
      copies[1][values[i + 1]]++;
      copies[2][values[i + 2]]++;
      copies[3][values[i + 3]]++;
    }
    for (; i < n_; ++i) copies[0][values[i]]++;  // the last n % 4
    for (std::size_t bin = 0; bin < 256; ++bin)
      counts_[bin] = copies[0][bin] + copies[1][bin] + copies[2][bin] + copies[3][bin];
  }

 private:
  const std::uint8_t* values_ = nullptr;
  std::size_t n_ = 0;
  std::uint32_t* counts_ = nullptr;
};

}  // namespace
LADDER_REGISTER_RUNG(histogram, serial, SerialHistogram);
}  // namespace ladder
