#pragma once
// The host side of the cuda, cuda_network and cuda_quads rungs: the whole
// stack on the device (input and output), one launch of launch_median_filter
// (kernels/median_filter/median_filter.cuh). The rungs differ only in the
// kernel for k = 5 and 7: forgetful selection (cuda), the selection network
// over sorted columns (cuda_network), shared by four windows at k = 7
// (cuda_quads): MedianKernel. A stack larger than the device's memory is
// cuda_streams' job.
#include <string>

#include "bench/problems/median_filter/median_filter.hpp"
#include "kernels/median_filter/median_filter.cuh"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"

namespace ladder::median_filter {

template <MedianKernel kKernel>
class CudaMedianFilter final : public CudaRung {
 public:
  explicit CudaMedianFilter(const RungContext& context)
      : CudaRung(context), settings_(median_filter::settings_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = &inputs.at("image");
    output_ = &outputs.at("output");
    stack_ = median_filter::stack_of(*image_);
    std::size_t free_bytes = 0, total_bytes = 0;
    LADDER_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (2 * image_->bytes() > free_bytes)
      throw DeviceError(std::string(kKernel == MedianKernel::network  ? "cuda_network"
                                    : kKernel == MedianKernel::quads ? "cuda_quads"
                                                                     : "cuda") +
                        ": the stack needs " +
                        std::to_string(2 * image_->bytes() >> 20) + " MiB on the device (input and output), more than the " +
                        std::to_string(free_bytes >> 20) + " MiB free; the cuda_streams rung filters it in slices");
    d_image_ = device_buffer<std::byte>(image_->bytes());
    d_output_ = device_buffer<std::byte>(image_->bytes());
  }

  void upload() override {
    LADDER_CUDA_CHECK(
        cudaMemcpyAsync(d_image_.data(), image_->raw(), image_->bytes(), cudaMemcpyHostToDevice, stream()));
  }
  void compute() override {
    const MedianSettings settings{settings_.size, settings_.remove_outlier, settings_.bright, settings_.diff};
    median_filter::with_pixel_type(image_->dtype(), [&](auto tag) {
      using T = decltype(tag);
      launch_median_filter(reinterpret_cast<const T*>(d_image_.data()), reinterpret_cast<T*>(d_output_.data()),
                           stack_.frames, int(stack_.height), int(stack_.width), settings, stream(), kKernel);
    });
    LADDER_CUDA_CHECK_LAUNCH();
  }
  void download() override {
    LADDER_CUDA_CHECK(
        cudaMemcpyAsync(output_->raw(), d_output_.data(), output_->bytes(), cudaMemcpyDeviceToHost, stream()));
  }

 private:
  median_filter::Settings settings_;
  median_filter::Stack stack_;
  const Array* image_ = nullptr;
  Array* output_ = nullptr;
  DeviceBuffer<std::byte> d_image_, d_output_;
};

}  // namespace ladder::median_filter
