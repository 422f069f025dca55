#pragma once
// What the host rungs share: κ, the sky and the two outputs, the mask and
// the statistics, taken in prepare(). Each rung is then its compute() (and
// any working memory it sizes in its own prepare()).
#include <cstdint>
#include <span>

#include "bench/problems/kappa_sigma/given/clip.hpp"
#include "ladder/registry.hpp"

namespace ladder::kappa_sigma {

template <class Backend>  // HostRung or OpenMpRung
class SkyRung : public Backend {
 public:
  explicit SkyRung(const RungContext& context) : kappa_(kappa_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<float>();
    mask_ = outputs.at("mask").view<std::uint8_t>();
    statistics_ = outputs.at("statistics").view<double>();
  }

 protected:
  double kappa_;
  std::span<const float> image_;
  std::span<std::uint8_t> mask_;
  std::span<double> statistics_;
};

}  // namespace ladder::kappa_sigma
