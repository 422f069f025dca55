#pragma once
// What the serial and openmp rungs share: the window's settings, the image
// and output arrays, and the networks for the window's size, built in
// prepare() (untimed). Each rung is then its compute(): how it goes over
// the rows of the stack, one row at a time or shared out among threads.
#include "ladder/registry.hpp"
#include "solutions/median_filter/selection_network.hpp"

namespace ladder::median_filter {

template <class Backend>  // HostRung or OpenMpRung
class NetworkRung : public Backend {
 public:
  explicit NetworkRung(const RungContext& context) : settings_(settings_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = &inputs.at("image");
    output_ = &outputs.at("output");
    networks_ = &networks_for(settings_.size);
  }

 protected:
  // Calls filter_rows(filter) with the filter for the image's pixel type,
  // whose row(f, y, scratch) filters row y of frame f.
  template <class FilterRows>
  void with_filter(FilterRows&& filter_rows) const {
    with_pixel_type(image_->dtype(), [&](auto tag) {
      using T = decltype(tag);
      filter_rows(SelectionNetworkFilter<T>(image_->view<T>().data(), output_->view<T>().data(), stack_of(*image_),
                                            settings_, *networks_));
    });
  }

 private:
  Settings settings_;
  const Networks* networks_ = nullptr;
  const Array* image_ = nullptr;
  Array* output_ = nullptr;
};

}  // namespace ladder::median_filter
