// cuda_unrolled: the cuda rung's tiles, compiled for the kernel's height
// (kernels/convolution/convolution_unrolled.cuh): the loops over the
// kernel's rows unroll, each weight read once from constant memory serves
// 8 outputs, a column of pixels comes in as float4s, and 32 × 32 output
// blocks fill the GPU in whole waves. No load or index arithmetic is left
// in the inner loop, only multiply-adds.
#include <string>
#include <vector>

#include "bench/problems/convolution/convolution.hpp"
#include "kernels/convolution/convolution_unrolled.cuh"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"

namespace ladder {
namespace {

using Kernel = void (*)(const float*, int, int, int, int, int, float*, int, int);

// The kernel compiled for R weight rows a pass: the kernel's height rounded
// up to an odd number when it takes one pass, 16 when it takes several
// (each instantiation is a separate kernel in the binary). Square odd
// kernels up to 15 × 15 get their width compiled in too.
Kernel kernel_for(int rows_per_pass, int rows, int columns) {
  if (rows == columns && rows == rows_per_pass) switch (rows) {
      case 1:
        return convolve_unrolled<1, 1>;
      case 3:
        return convolve_unrolled<3, 3>;
      case 5:
        return convolve_unrolled<5, 5>;
      case 7:
        return convolve_unrolled<7, 7>;
      case 9:
        return convolve_unrolled<9, 9>;
      case 11:
        return convolve_unrolled<11, 11>;
      case 13:
        return convolve_unrolled<13, 13>;
      case 15:
        return convolve_unrolled<15, 15>;
    }
  switch (rows_per_pass) {
    case 1:
      return convolve_unrolled<1, 0>;
    case 3:
      return convolve_unrolled<3, 0>;
    case 5:
      return convolve_unrolled<5, 0>;
    case 7:
      return convolve_unrolled<7, 0>;
    case 9:
      return convolve_unrolled<9, 0>;
    case 11:
      return convolve_unrolled<11, 0>;
    case 13:
      return convolve_unrolled<13, 0>;
    case 15:
      return convolve_unrolled<15, 0>;
    default:
      return convolve_unrolled<16, 0>;
  }
}

class CudaUnrolledConvolution final : public CudaRung {
 public:
  explicit CudaUnrolledConvolution(const RungContext& context) : CudaRung(context) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<float>();
    output_ = outputs.at("output").view<float>();
    sizes_ = convolution::sizes_of(inputs);
    const int rows_per_pass = sizes_.rows <= kUnrolledOnePassRows ? sizes_.rows | 1 : 16;
    passes_ = ceil_div(sizes_.rows, rows_per_pass);

    // The weights as the kernel reads them: flipped (a convolution reads the
    // kernel backwards), pass by pass, each column's rows side by side.
    const auto kernel = inputs.at("kernel").view<float>();
    h_weights_.clear();
    for (int pass = 0; pass < passes_; ++pass)
      for (int b = 0; b < sizes_.columns; ++b)
        for (int a = pass * rows_per_pass; a < (pass + 1) * rows_per_pass; ++a)
          h_weights_.push_back(
              a < sizes_.rows ? kernel[(sizes_.rows - 1 - a) * sizes_.columns + (sizes_.columns - 1 - b)] : 0.0f);
    if (h_weights_.size() > kUnrolledConstantFloats)
      throw DeviceError("cuda_unrolled: a " + std::to_string(sizes_.rows) + "×" + std::to_string(sizes_.columns) +
                        " kernel needs " + std::to_string(h_weights_.size() * sizeof(float) / 1024) +
                        " KiB of weights, more than the " +
                        std::to_string(kUnrolledConstantFloats * sizeof(float) / 1024) +
                        " KiB of constant memory it reserves; the cuda and cuda_fft rungs take larger kernels");

    const int tile_height = kUnrolledTileHeight + passes_ * rows_per_pass - 1;
    shared_bytes_ =
        std::size_t(unrolled_column_stride(tile_height)) * (kUnrolledTileWidth + sizes_.columns - 1) * sizeof(float);
    if (shared_bytes_ > properties().sharedMemPerBlockOptin)
      throw DeviceError("cuda_unrolled: a " + std::to_string(sizes_.rows) + "×" + std::to_string(sizes_.columns) +
                        " kernel needs a " + std::to_string(shared_bytes_ / 1024) +
                        " KiB shared-memory tile, more than the " +
                        std::to_string(properties().sharedMemPerBlockOptin / 1024) +
                        " KiB a block may have on this GPU; the cuda_fft rung takes any kernel size");
    convolve_ = kernel_for(rows_per_pass, sizes_.rows, sizes_.columns);
    LADDER_CUDA_CHECK(
        cudaFuncSetAttribute(convolve_, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes_)));

    d_image_ = device_buffer<float>(image_.size());
    d_output_ = device_buffer<float>(output_.size());
    grid_ = dim3(ceil_div(sizes_.out_width(), kUnrolledTileWidth), ceil_div(sizes_.out_height(), kUnrolledTileHeight));
  }

  void upload() override {
    copy_to_device(d_image_, image_);
    LADDER_CUDA_CHECK(cudaMemcpyToSymbolAsync(unrolled_weights, h_weights_.data(), h_weights_.size() * sizeof(float), 0,
                                              cudaMemcpyHostToDevice, stream()));
  }
  void compute() override {
    convolve_<<<grid_, dim3(kUnrolledThreadsX, kUnrolledThreadsY), shared_bytes_, stream()>>>(
        d_image_.data(), sizes_.height, sizes_.width, sizes_.rows, sizes_.columns, passes_, d_output_.data(),
        sizes_.out_height(), sizes_.out_width());
    LADDER_CUDA_CHECK_LAUNCH();
  }
  void download() override { copy_to_host(output_, d_output_); }

 private:
  std::span<const float> image_;
  std::span<float> output_;
  convolution::Sizes sizes_;
  int passes_ = 1;
  std::vector<float> h_weights_;
  DeviceBuffer<float> d_image_, d_output_;
  Kernel convolve_ = nullptr;
  std::size_t shared_bytes_ = 0;
  dim3 grid_;
};

}  // namespace
LADDER_REGISTER_RUNG(convolution, cuda_unrolled, CudaUnrolledConvolution);
}  // namespace ladder
