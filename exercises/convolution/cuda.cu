// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// cuda: the convolution as a CUDA kernel (kernels/convolution_tiles.cuh), the
// image in shared-memory tiles, the weights in __constant__ memory, one
// output per thread. The host side is given: buffers, copies, the launch.
// ==== end
#include <string>

#include "bench/problems/convolution/convolution.hpp"
// ==== exercise only
#include "kernels/convolution_tiles.cuh"
// ==== end
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"

namespace ladder {
namespace {

class CudaConvolution final : public CudaRung {
 public:
  explicit CudaConvolution(const RungContext& context) : CudaRung(context) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<float>();
    // ==== exercise only
    kernel_ = inputs.at("kernel").view<float>();
    // ==== end
    output_ = outputs.at("output").view<float>();
    sizes_ = convolution::sizes_of(inputs);
    // ==== exercise only
    if (kernel_.size() > static_cast<std::size_t>(kConvMaxWeights))
      throw DeviceError("cuda: this rung keeps at most " + std::to_string(kConvMaxWeights) +
                        " weights in __constant__ memory; the kernel has " + std::to_string(kernel_.size()));
    // The tile grows with the kernel: above 48 KiB a kernel must ask for more.
    shared_bytes_ = std::size_t(kConvTile + sizes_.rows - 1) * (kConvTile + sizes_.columns - 1) * sizeof(float);
    // ==== end
    if (shared_bytes_ > properties().sharedMemPerBlockOptin)
      throw DeviceError("cuda: a " + std::to_string(sizes_.rows) + "×" + std::to_string(sizes_.columns) +
                        " kernel needs a " + std::to_string(shared_bytes_ / 1024) +
                        // ==== exercise only
                        " KiB shared-memory tile, more than this GPU allows");
    LADDER_CUDA_CHECK(cudaFuncSetAttribute(convolve_tiles, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(shared_bytes_)));
    // ==== end
    d_image_ = device_buffer<float>(image_.size());
    d_output_ = device_buffer<float>(output_.size());
    // ==== exercise only
    grid_ = dim3(ceil_div(sizes_.out_width(), kConvTile), ceil_div(sizes_.out_height(), kConvTile));
#ifdef LADDER_TODO_CUDA_KERNEL  // kernels/convolution_tiles.cuh still holds its TODO line
    LADDER_TODO(LADDER_TODO_CUDA_KERNEL);
#endif
    // ==== end
  }

  void upload() override {
    copy_to_device(d_image_, image_);
    // ==== exercise only
    LADDER_CUDA_CHECK(cudaMemcpyToSymbolAsync(convolution_weights, kernel_.data(), kernel_.size_bytes(), 0,
                                              cudaMemcpyHostToDevice, stream()));
    // ==== end
  }
  void compute() override {
    // ==== exercise only
    convolve_tiles<<<grid_, dim3(kConvTile, kConvTile), shared_bytes_, stream()>>>(
        d_image_.data(), sizes_.height, sizes_.width, sizes_.rows, sizes_.columns, d_output_.data(),
        sizes_.out_height(), sizes_.out_width());
    // ==== end
    LADDER_CUDA_CHECK_LAUNCH();
  }
  void download() override { copy_to_host(output_, d_output_); }

 private:
  // ==== exercise only
  std::span<const float> image_, kernel_;
  // ==== end
  std::span<float> output_;
  convolution::Sizes sizes_;
  DeviceBuffer<float> d_image_, d_output_;
  std::size_t shared_bytes_ = 0;
  dim3 grid_;
};

}  // namespace
LADDER_REGISTER_RUNG(convolution, cuda, CudaConvolution);
}  // namespace ladder
