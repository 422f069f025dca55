// serial: a sorted window slides along each row (sorted_window.hpp). Per
// pixel, k values leave and k enter, each moved to its place in the sorted
// window, instead of the naive rung's gather and sort of all k² values; and
// the reflected columns are looked up once, not per read.
#include "ladder/registry.hpp"
#include "sorted_window.hpp"

namespace ladder {
namespace {

class SerialMedianFilter final : public HostRung {
 public:
  explicit SerialMedianFilter(const RungContext& context) : settings_(median_filter::settings_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = &inputs.at("image");
    output_ = &outputs.at("output");
  }

  void compute() override {
    median_filter::with_pixel_type(image_->dtype(), [&](auto tag) {
      using T = decltype(tag);
      const median_filter::Stack stack = median_filter::stack_of(*image_);
      median_filter::SortedWindowFilter<T> filter(image_->view<T>().data(), output_->view<T>().data(), stack,
                                                  settings_);
      std::vector<T> window;
      for (std::size_t f = 0; f < stack.frames; ++f)
        for (long y = 0; y < long(stack.height); ++y) filter.row(f, y, window);
    });
  }

 private:
  median_filter::Settings settings_;
  const Array* image_ = nullptr;
  Array* output_ = nullptr;
};

}  // namespace
LADDER_REGISTER_RUNG(median_filter, serial, Backend::host, SerialMedianFilter);
}  // namespace ladder
