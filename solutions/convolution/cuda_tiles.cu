// cuda_tiles: the opencl rung's kernel in CUDA
// (kernels/convolution/convolution_simple_tiles.cuh): one 16×16 block per
// 16×16 block of outputs, a shared-memory tile of the region it reads, one
// output per thread, the weights in __constant__ memory. The step from
// opencl is the language alone (blockIdx for get_group_id, threadIdx for
// get_local_id); the cuda rung above it then gives each thread a strip of
// outputs.
#include <string>

#include "bench/problems/convolution/convolution.hpp"
#include "kernels/convolution/convolution_simple_tiles.cuh"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"

namespace ladder {
namespace {

class CudaTilesConvolution final : public CudaRung {
 public:
  explicit CudaTilesConvolution(const RungContext& context) : CudaRung(context) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<float>();
    kernel_ = inputs.at("kernel").view<float>();
    output_ = outputs.at("output").view<float>();
    sizes_ = convolution::sizes_of(inputs);

    // The tile grows with the kernel: above 48 KiB a kernel must ask for
    // more shared memory, up to the device's limit per block.
    shared_bytes_ = std::size_t(kTilesBlock + sizes_.rows - 1) * (kTilesBlock + sizes_.columns - 1) * sizeof(float);
    if (shared_bytes_ > properties().sharedMemPerBlockOptin)
      throw DeviceError("cuda_tiles: a " + std::to_string(sizes_.rows) + "×" + std::to_string(sizes_.columns) +
                        " kernel needs a " + std::to_string(shared_bytes_ / 1024) +
                        " KiB shared-memory tile, more than the " +
                        std::to_string(properties().sharedMemPerBlockOptin / 1024) +
                        " KiB a block may have on this GPU; the cuda_fft rung takes any kernel size");
    constant_weights_ = kernel_.size() <= std::size_t{kTilesConstantWeights};
    if (!constant_weights_) d_weights_ = device_buffer<float>(kernel_.size());
    convolve_ = constant_weights_ ? convolve_tiles<true> : convolve_tiles<false>;
    LADDER_CUDA_CHECK(
        cudaFuncSetAttribute(convolve_, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes_)));

    d_image_ = device_buffer<float>(image_.size());
    d_output_ = device_buffer<float>(output_.size());
    grid_ = dim3(ceil_div(sizes_.out_width(), kTilesBlock), ceil_div(sizes_.out_height(), kTilesBlock));
  }

  void upload() override {
    copy_to_device(d_image_, image_);
    if (constant_weights_)
      LADDER_CUDA_CHECK(cudaMemcpyToSymbolAsync(tiles_weights, kernel_.data(), kernel_.size_bytes(), 0,
                                                cudaMemcpyHostToDevice, stream()));
    else
      copy_to_device(d_weights_, kernel_);
  }
  void compute() override {
    convolve_<<<grid_, dim3(kTilesBlock, kTilesBlock), shared_bytes_, stream()>>>(
        d_image_.data(), sizes_.height, sizes_.width, d_weights_.data(), sizes_.rows, sizes_.columns, d_output_.data(),
        sizes_.out_height(), sizes_.out_width());
    LADDER_CUDA_CHECK_LAUNCH();
  }
  void download() override { copy_to_host(output_, d_output_); }

 private:
  using Kernel = void (*)(const float*, int, int, const float*, int, int, float*, int, int);
  std::span<const float> image_, kernel_;
  std::span<float> output_;
  convolution::Sizes sizes_;
  bool constant_weights_ = true;
  DeviceBuffer<float> d_image_, d_output_, d_weights_;
  Kernel convolve_ = nullptr;
  std::size_t shared_bytes_ = 0;
  dim3 grid_;
};

}  // namespace
LADDER_REGISTER_RUNG(convolution, cuda_tiles, CudaTilesConvolution);
}  // namespace ladder
