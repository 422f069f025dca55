// cuda: shared-memory tiles, the weights in __constant__ memory, and a strip
// of 16 outputs per thread (kernels/convolution/convolution_tiles.cuh): each
// pixel loaded from shared memory feeds up to 4 fused multiply-adds from a
// register, so the kernel runs on arithmetic, not on loads.
#include <string>
#include <vector>

#include "bench/problems/convolution/convolution.hpp"
#include "kernels/convolution/convolution_tiles.cuh"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"

namespace ladder {
namespace {

class CudaConvolution final : public CudaRung {
 public:
  explicit CudaConvolution(const RungContext& context) : CudaRung(context) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<float>();
    output_ = outputs.at("output").view<float>();
    sizes_ = convolution::sizes_of(inputs);
    rows_padded_ = round_up(sizes_.rows, kConvChunk);

    // The weights as the kernel reads them: flipped (a convolution reads the
    // kernel backwards), padded with zero rows to whole chunks of 4 rows, and
    // each chunk's 4 weights of a column side by side. K·L floats,
    // rearranged once on the host; upload() copies them.
    const auto kernel = inputs.at("kernel").view<float>();
    auto weight = [&](int a, int b) {
      return a < sizes_.rows ? kernel[(sizes_.rows - 1 - a) * sizes_.columns + (sizes_.columns - 1 - b)] : 0.0f;
    };
    h_weights_.clear();
    for (int a0 = 0; a0 < rows_padded_; a0 += kConvChunk)
      for (int b = 0; b < sizes_.columns; ++b)
        h_weights_.push_back(make_float4(weight(a0, b), weight(a0 + 1, b), weight(a0 + 2, b), weight(a0 + 3, b)));
    constant_weights_ = h_weights_.size() <= kConvConstantChunks;
    if (!constant_weights_) d_weights_ = device_buffer<float4>(h_weights_.size());

    // The tile grows with the kernel: above 48 KiB a kernel must ask for
    // more shared memory, up to the device's limit per block.
    shared_bytes_ =
        std::size_t(kConvTileHeight + rows_padded_ - 1) * (kConvTileWidth + sizes_.columns - 1) * sizeof(float);
    if (shared_bytes_ > properties().sharedMemPerBlockOptin)
      throw DeviceError("cuda: a " + std::to_string(sizes_.rows) + "×" + std::to_string(sizes_.columns) +
                        " kernel needs a " + std::to_string(shared_bytes_ / 1024) +
                        " KiB shared-memory tile, more than the " +
                        std::to_string(properties().sharedMemPerBlockOptin / 1024) +
                        " KiB a block may have on this GPU; the cuda_fft rung takes any kernel size");
    convolve_ = constant_weights_ ? convolve_strips<true> : convolve_strips<false>;
    LADDER_CUDA_CHECK(
        cudaFuncSetAttribute(convolve_, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes_)));
    // Ask for the largest shared-memory carveout, so that as many blocks as
    // the registers and threads allow fit on an SM (the kernel uses no L1).
    LADDER_CUDA_CHECK(cudaFuncSetAttribute(convolve_, cudaFuncAttributePreferredSharedMemoryCarveout,
                                           cudaSharedmemCarveoutMaxShared));

    d_image_ = device_buffer<float>(image_.size());
    d_output_ = device_buffer<float>(output_.size());
    grid_ = dim3(ceil_div(sizes_.out_width(), kConvTileWidth), ceil_div(sizes_.out_height(), kConvTileHeight));
  }

  void upload() override {
    copy_to_device(d_image_, image_);
    if (constant_weights_)
      LADDER_CUDA_CHECK(cudaMemcpyToSymbolAsync(convolution_weights, h_weights_.data(),
                                                h_weights_.size() * sizeof(float4), 0, cudaMemcpyHostToDevice,
                                                stream()));
    else
      copy_to_device(d_weights_, std::span<const float4>(h_weights_));
  }
  void compute() override {
    convolve_<<<grid_, dim3(kConvThreadsX, kConvThreadsY), shared_bytes_, stream()>>>(
        d_image_.data(), sizes_.height, sizes_.width, d_weights_.data(), sizes_.rows, rows_padded_, sizes_.columns,
        d_output_.data(), sizes_.out_height(), sizes_.out_width());
    LADDER_CUDA_CHECK_LAUNCH();
  }
  void download() override { copy_to_host(output_, d_output_); }

 private:
  using Kernel = void (*)(const float*, int, int, const float4*, int, int, int, float*, int, int);
  std::span<const float> image_;
  std::span<float> output_;
  convolution::Sizes sizes_;
  int rows_padded_ = 0;
  std::vector<float4> h_weights_;
  bool constant_weights_ = true;
  DeviceBuffer<float> d_image_, d_output_;
  DeviceBuffer<float4> d_weights_;
  Kernel convolve_ = nullptr;
  std::size_t shared_bytes_ = 0;
  dim3 grid_;
};

}  // namespace
LADDER_REGISTER_RUNG(convolution, cuda, CudaConvolution);
}  // namespace ladder
