#pragma once
// naive: the slides' core function, "(m,n),(n,p)->(m,p)", called on one
// pair of matrices after the other: for each element of c, the dot product
// of a row of a and a column of b. The column is read with a stride of p.
//
// Given to both tracks: the participant's track builds it too (naive.cpp
// registers it), so that there is always a working rung to compare
// against. A header, so that the tests derive their planted mistakes
// from it.
#include "ladder/registry.hpp"

namespace ladder::batched_matmul {

class NaiveBatchedMatmul : public HostRung {
 public:
  explicit NaiveBatchedMatmul(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    a_ = inputs.at("a").view<float>().data();
    b_ = inputs.at("b").view<float>().data();
    c_ = outputs.at("c").view<float>().data();
    const auto& a = inputs.at("a").shape();
    batch_ = a[0], m_ = a[1], n_ = a[2], p_ = inputs.at("b").shape()[2];
  }

  void compute() override {
    for (std::size_t q = 0; q < batch_; ++q) matmul(a_ + q * m_ * n_, b_ + q * n_ * p_, c_ + q * m_ * p_);
  }

 protected:
  // The slides' core function, c = a b for one pair. A function of its own,
  // once per pair, because the tests plant a mistake here.
  virtual void matmul(const float* a, const float* b, float* c) const {
    for (std::size_t i = 0; i < m_; ++i)
      for (std::size_t j = 0; j < p_; ++j) {
        float sum = 0;
        for (std::size_t k = 0; k < n_; ++k) sum += a[i * n_ + k] * b[k * p_ + j];
        c[i * p_ + j] = sum;
      }
  }

  const float* a_ = nullptr;
  const float* b_ = nullptr;
  float* c_ = nullptr;
  std::size_t batch_ = 0, m_ = 0, n_ = 0, p_ = 0;
};

}  // namespace ladder::batched_matmul
