// cuda: the convolution as a CUDA kernel (kernels/convolution_tiles.cuh), the
// image in shared-memory tiles, the weights in __constant__ memory, one
// output per thread. The host side is given: buffers, copies, the launch.
#include <string>

#include "kernels/convolution_tiles.cuh"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"

namespace ladder {
namespace {

class CudaConvolution final : public CudaRung {
 public:
  explicit CudaConvolution(const RungContext& context) : CudaRung(context) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<float>();
    kernel_ = inputs.at("kernel").view<float>();
    output_ = outputs.at("output").view<float>();
    height_ = static_cast<int>(inputs.at("image").shape()[0]);
    width_ = static_cast<int>(inputs.at("image").shape()[1]);
    rows_ = static_cast<int>(inputs.at("kernel").shape()[0]);
    columns_ = static_cast<int>(inputs.at("kernel").shape()[1]);
    if (kernel_.size() > static_cast<std::size_t>(kConvMaxWeights))
      throw DeviceError("cuda: this rung keeps at most " + std::to_string(kConvMaxWeights) +
                        " weights in __constant__ memory; the kernel has " + std::to_string(kernel_.size()));
    // The tile grows with the kernel: above 48 KiB a kernel must ask for more.
    shared_bytes_ = std::size_t(kConvTile + rows_ - 1) * (kConvTile + columns_ - 1) * sizeof(float);
    if (shared_bytes_ > properties().sharedMemPerBlockOptin)
      throw DeviceError("cuda: a " + std::to_string(rows_) + "×" + std::to_string(columns_) + " kernel needs a " +
                        std::to_string(shared_bytes_ / 1024) + " KiB shared-memory tile, more than this GPU allows");
    LADDER_CUDA_CHECK(cudaFuncSetAttribute(convolve_tiles, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(shared_bytes_)));
    d_image_ = DeviceBuffer<float>(image_.size());
    d_output_ = DeviceBuffer<float>(output_.size());
    const int out_height = height_ + rows_ - 1, out_width = width_ + columns_ - 1;
    grid_ = dim3(ceil_div(out_width, kConvTile), ceil_div(out_height, kConvTile));
#ifdef LADDER_TODO_CUDA_KERNEL  // kernels/convolution_tiles.cuh still holds its TODO line
    LADDER_TODO(LADDER_TODO_CUDA_KERNEL);
#endif
  }

  void upload() override {
    copy_to_device(d_image_, image_);
    LADDER_CUDA_CHECK(cudaMemcpyToSymbolAsync(convolution_weights, kernel_.data(), kernel_.size_bytes(), 0,
                                              cudaMemcpyHostToDevice, stream()));
  }
  void compute() override {
    const int out_height = height_ + rows_ - 1, out_width = width_ + columns_ - 1;
    convolve_tiles<<<grid_, dim3(kConvTile, kConvTile), shared_bytes_, stream()>>>(
        d_image_.data(), height_, width_, rows_, columns_, d_output_.data(), out_height, out_width);
    LADDER_CUDA_CHECK_LAUNCH();
  }
  void download() override { copy_to_host(output_, d_output_); }

 private:
  std::span<const float> image_, kernel_;
  std::span<float> output_;
  int height_ = 0, width_ = 0, rows_ = 0, columns_ = 0;
  DeviceBuffer<float> d_image_, d_output_;
  std::size_t shared_bytes_ = 0;
  dim3 grid_;
};

}  // namespace
LADDER_REGISTER_RUNG(convolution, cuda, Backend::cuda, CudaConvolution);
}  // namespace ladder
