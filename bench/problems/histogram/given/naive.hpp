#pragma once
// naive: the loop a newcomer writes, one counter per bin, counts[v]++.
// When a value repeats, each increment must wait for the previous store to
// the same counter: on `skewed` data the loop is one long dependency chain.
//
// Given to both tracks: the participant's track builds it too (naive.cpp
// registers it), so that there is always a working rung to compare
// against. A header, so that the tests derive their planted mistakes
// from it.
#include <algorithm>

#include "ladder/registry.hpp"

namespace ladder::histogram {

class NaiveHistogram : public HostRung {
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

 protected:
  std::span<const std::uint8_t> values_;
  std::span<std::uint32_t> counts_;
};

}  // namespace ladder::histogram
