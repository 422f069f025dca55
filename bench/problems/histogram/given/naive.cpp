// naive: the loop a newcomer writes, one counter per bin, counts[v]++.
// When a value repeats, each increment must wait for the previous store to
// the same counter: on `skewed` data the loop is one long dependency chain.
//
// Given to both tracks: the participant's track builds this file too, so
// that there is always a working rung to compare against.
#include <algorithm>

#include "ladder/registry.hpp"

namespace ladder {
namespace {

class NaiveHistogram final : public HostRung {
 public:
  explicit NaiveHistogram(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    values_ = inputs.at("values").view<std::uint8_t>();
    counts_ = outputs.at("counts").view<std::uint32_t>();
  }

  void compute() override {
    std::fill(counts_.begin(), counts_.end(), 0u);
    for (std::size_t i = 0; i < values_.size(); ++i) counts_[values_[i]]++;
  }

 private:
  std::span<const std::uint8_t> values_;
  std::span<std::uint32_t> counts_;
};

}  // namespace
LADDER_REGISTER_RUNG(histogram, naive, NaiveHistogram);
}  // namespace ladder
