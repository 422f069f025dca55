// serial: a selection network instead of a sort (selection_network.hpp).
// Each column of k values is sorted once and shared by the k windows that
// hold it; a fixed sequence of min/max steps, built once per k, then picks
// the middle value for a whole vector of pixels at once, with no branch.
// naive sorts k² values per pixel; this does 18 min/max per pixel at k = 3.
#include "ladder/registry.hpp"
#include "selection_network.hpp"

namespace ladder {
namespace {

class SerialMedianFilter final : public HostRung {
 public:
  explicit SerialMedianFilter(const RungContext& context) : settings_(median_filter::settings_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = &inputs.at("image");
    output_ = &outputs.at("output");
    networks_ = &median_filter::networks_for(settings_.size);
  }

  void compute() override {
    median_filter::with_pixel_type(image_->dtype(), [&](auto tag) {
      using T = decltype(tag);
      const median_filter::Stack stack = median_filter::stack_of(*image_);
      const median_filter::SelectionNetworkFilter<T> filter(image_->view<T>().data(), output_->view<T>().data(),
                                                            stack, settings_, *networks_);
      typename median_filter::SelectionNetworkFilter<T>::Scratch scratch;
      for (std::size_t f = 0; f < stack.frames; ++f)
        for (long y = 0; y < long(stack.height); ++y) filter.row(f, y, scratch);
    });
  }

 private:
  median_filter::Settings settings_;
  const median_filter::Networks* networks_ = nullptr;
  const Array* image_ = nullptr;
  Array* output_ = nullptr;
};

}  // namespace
LADDER_REGISTER_RUNG(median_filter, serial, SerialMedianFilter);
}  // namespace ladder
