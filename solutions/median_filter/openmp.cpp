// openmp: the serial rung's selection network, with the rows of every frame
// shared out among the threads (frames × rows as one loop, so that a single
// large frame and a stack of small ones both keep every thread busy). Each
// row is read-only input and written by one thread: no thread waits.
#include "ladder/registry.hpp"
#include "selection_network.hpp"

namespace ladder {
namespace {

class OpenMpMedianFilter final : public OpenMpRung {
 public:
  explicit OpenMpMedianFilter(const RungContext& context) : settings_(median_filter::settings_of(context.params)) {}

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
      const long height = long(stack.height), rows = long(stack.frames) * height;
#pragma omp parallel
      {
        typename median_filter::SelectionNetworkFilter<T>::Scratch scratch;  // each thread's own
#pragma omp for schedule(static)
        for (long row = 0; row < rows; ++row) filter.row(std::size_t(row / height), row % height, scratch);
      }
    });
  }

 private:
  median_filter::Settings settings_;
  const median_filter::Networks* networks_ = nullptr;
  const Array* image_ = nullptr;
  Array* output_ = nullptr;
};

}  // namespace
LADDER_REGISTER_RUNG(median_filter, openmp, OpenMpMedianFilter);
}  // namespace ladder
