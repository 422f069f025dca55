#pragma once
// What the serial and openmp rungs share: the settings and DIALS' test
// built from them, and the stack's image, mask and signal arrays, set up in
// prepare() (untimed). Each rung is its compute(): the bands of every frame
// one after the other, or shared out among threads.
#include <cstdint>

#include "ladder/registry.hpp"
#include "solutions/spot_finding/summed_area.hpp"

namespace ladder::spot_finding {

template <class Backend>  // HostRung or OpenMpRung
class SummedAreaRung : public Backend {
 public:
  explicit SummedAreaRung(const RungContext& context) : settings_(settings_of(context.params)), test_(settings_) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<std::uint16_t>().data();
    mask_ = inputs.at("mask").view<std::uint8_t>().data();
    signal_ = outputs.at("signal").view<std::uint8_t>().data();
    stack_ = stack_of(inputs.at("image"));
  }

 protected:
  Settings settings_;
  DispersionTest test_;
  const std::uint16_t* image_ = nullptr;
  const std::uint8_t* mask_ = nullptr;
  std::uint8_t* signal_ = nullptr;
  Stack stack_;
};

}  // namespace ladder::spot_finding
