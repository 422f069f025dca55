#pragma once
// The naive rung's class (naive.cpp registers it and says its idea), in a
// header so that the tests can derive their planted mistakes from it.
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
