// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// cuda: the opencl rung's tiles in shared memory (kernels/median_filter.cuh):
// one block per 16 × 16 tile of a frame, the whole stack in one launch
// (blockIdx.z is the frame). The host side is given: buffers, copies, the
// launch. A stack larger than the device's memory is refused here; the
// solution's cuda_streams rung filters it in slices.
#include <string>

#include "bench/problems/median_filter/median_filter.hpp"
#include "kernels/median_filter.cuh"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"

namespace ladder {
namespace {

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
      throw DeviceError("cuda: the stack needs " + std::to_string(2 * image_->bytes() >> 20) +
                        " MiB on the device (input and output), more than the " + std::to_string(free_bytes >> 20) +
                        " MiB free");
    d_image_ = device_buffer<std::byte>(image_->bytes());
    d_output_ = device_buffer<std::byte>(image_->bytes());
    // The launch: a tile per block, a grid layer per frame (validate()
    // refuses more than 65535 frames).
    grid_ = dim3(ceil_div(unsigned(stack_.width), kMedianTile),
                 ceil_div(unsigned(stack_.height), kMedianTile), unsigned(stack_.frames));
    shared_bytes_ = median_shared_bytes(settings_.size, dtype_size(image_->dtype()));
#ifdef LADDER_TODO_CUDA_KERNEL  // kernels/median_filter.cuh still holds its TODO line
    LADDER_TODO(LADDER_TODO_CUDA_KERNEL);
#endif
  }

  void upload() override {
    LADDER_CUDA_CHECK(
        cudaMemcpyAsync(d_image_.data(), image_->raw(), image_->bytes(), cudaMemcpyHostToDevice, stream()));
  }
  void compute() override {
    const MedianSettings settings{settings_.size, settings_.remove_outlier, settings_.bright, settings_.diff};
    median_filter::with_pixel_type(image_->dtype(), [&](auto tag) {
      using T = decltype(tag);
      launch_median_tiles(grid_, shared_bytes_, stream(), reinterpret_cast<const T*>(d_image_.data()),
                          reinterpret_cast<T*>(d_output_.data()), int(stack_.height), int(stack_.width), settings);
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
  dim3 grid_;
  std::size_t shared_bytes_ = 0;
};

}  // namespace
LADDER_REGISTER_RUNG(median_filter, cuda, CudaMedianFilter);
// ==== end
}  // namespace ladder
