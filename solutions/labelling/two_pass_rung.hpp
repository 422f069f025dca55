#pragma once
// What the serial and openmp rungs share: the connectivity, the image and
// labels arrays, and the union-find's parent table, sized in prepare()
// (untimed) for the most provisional labels the image can need. Each rung
// is its compute(): the two passes over the whole image, or over strips.
#include <cstdint>
#include <vector>

#include "bench/problems/labelling/given/connectivity.hpp"
#include "ladder/registry.hpp"
#include "solutions/labelling/two_pass.hpp"

namespace ladder::labelling {

template <class Backend>  // HostRung or OpenMpRung
class TwoPassRung : public Backend {
 public:
  explicit TwoPassRung(const RungContext& context) : connectivity_(connectivity(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<std::uint8_t>().data();
    labels_ = outputs.at("labels").view<std::int32_t>().data();
    height_ = static_cast<long>(inputs.at("image").shape()[0]);
    width_ = static_cast<long>(inputs.at("image").shape()[1]);
    parent_.assign(max_provisional_labels(height_, width_) + 1, 0);
  }

 protected:
  int connectivity_;
  const std::uint8_t* image_ = nullptr;
  Label* labels_ = nullptr;
  long height_ = 0, width_ = 0;
  std::vector<Label> parent_;
};

}  // namespace ladder::labelling
