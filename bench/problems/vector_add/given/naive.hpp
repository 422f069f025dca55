#pragma once
// naive: the loop a newcomer writes, every element read through a
// bounds-checked accessor (as Python's or std::vector::at's indexing does).
// The check can throw inside the loop, so the compiler keeps it scalar.
//
// Given to both tracks: the participant's track builds it too (naive.cpp
// registers it), so that there is always a working rung to compare
// against. A header, so that the tests derive their planted mistakes
// from it.
#include <stdexcept>

#include "ladder/registry.hpp"

namespace ladder::vector_add {

inline float element(std::span<const float> values, std::size_t i) {
  if (i >= values.size()) throw std::out_of_range("index out of range");
  return values[i];
}

class NaiveVectorAdd : public HostRung {
 public:
  explicit NaiveVectorAdd(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    a_ = inputs.at("a").view<float>();
    b_ = inputs.at("b").view<float>();
    c_ = outputs.at("c").view<float>();
  }

  void compute() override {
    for (std::size_t i = 0; i < c_.size(); ++i) c_[i] = element(a_, i) + element(b_, i);
  }

 protected:
  std::span<const float> a_, b_;
  std::span<float> c_;
};

}  // namespace ladder::vector_add
