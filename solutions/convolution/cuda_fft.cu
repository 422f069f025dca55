// cuda_fft: the convolution theorem with cuFFT, as in the NumbaPro slides.
// Zero-pad image and kernel to the output's size (rounded up to a product of
// 2, 3, 5 and 7, the sizes cuFFT transforms fastest), transform both (real to
// complex), multiply the spectra, transform back, crop: O(N log N) work,
// whatever the kernel's size, where the direct rungs do K·L per pixel.
#include <cufft.h>

#include <string>

#include "kernels/convolution/convolution_fft.cuh"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"

#define LADDER_CUFFT_CHECK(expr) cufft_check((expr), #expr, __FILE__, __LINE__)

namespace ladder {
namespace {

const char* cufft_error_name(cufftResult status) {
  switch (status) {
#define LADDER_CUFFT_NAME(name) \
  case name:                    \
    return #name;
    LADDER_CUFFT_NAME(CUFFT_SUCCESS)
    LADDER_CUFFT_NAME(CUFFT_INVALID_PLAN)
    LADDER_CUFFT_NAME(CUFFT_ALLOC_FAILED)
    LADDER_CUFFT_NAME(CUFFT_INVALID_TYPE)
    LADDER_CUFFT_NAME(CUFFT_INVALID_VALUE)
    LADDER_CUFFT_NAME(CUFFT_INTERNAL_ERROR)
    LADDER_CUFFT_NAME(CUFFT_EXEC_FAILED)
    LADDER_CUFFT_NAME(CUFFT_SETUP_FAILED)
    LADDER_CUFFT_NAME(CUFFT_INVALID_SIZE)
    LADDER_CUFFT_NAME(CUFFT_INVALID_DEVICE)
    LADDER_CUFFT_NAME(CUFFT_NO_WORKSPACE)
    LADDER_CUFFT_NAME(CUFFT_NOT_IMPLEMENTED)
    LADDER_CUFFT_NAME(CUFFT_NOT_SUPPORTED)
#undef LADDER_CUFFT_NAME
    default:
      return "unknown cufftResult";
  }
}

// Every cuFFT call goes through this, as every CUDA call goes through LADDER_CUDA_CHECK.
void cufft_check(cufftResult status, const char* call, const char* file, int line) {
  if (status == CUFFT_SUCCESS) return;
  throw DeviceError(std::string("cuFFT call ") + call + " failed: " + cufft_error_name(status) + " (" +
                    std::to_string(static_cast<int>(status)) + ") at " + file + ":" + std::to_string(line));
}

// The smallest n' >= max(n, 2) whose only prime factors are 2, 3, 5 and 7.
// (2 at least: a transform of length 1 is not worth asking cuFFT about.)
int fft_size(int n) {
  for (int candidate = n < 2 ? 2 : n;; ++candidate) {
    int rest = candidate;
    for (int prime : {2, 3, 5, 7})
      while (rest % prime == 0) rest /= prime;
    if (rest == 1) return candidate;
  }
}

class CudaFftConvolution final : public CudaRung {
 public:
  explicit CudaFftConvolution(const RungContext& context) : CudaRung(context) {}
  ~CudaFftConvolution() override {
    if (planned_) {  // no check: destructors must not throw
      cufftDestroy(forward_);
      cufftDestroy(inverse_);
    }
  }

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<float>();
    kernel_ = inputs.at("kernel").view<float>();
    output_ = outputs.at("output").view<float>();
    height_ = inputs.at("image").shape()[0];
    width_ = inputs.at("image").shape()[1];
    rows_ = inputs.at("kernel").shape()[0];
    columns_ = inputs.at("kernel").shape()[1];
    out_height_ = height_ + rows_ - 1;
    out_width_ = width_ + columns_ - 1;
    // Zero padding to at least the output's size: the FFT's product is a
    // circular convolution, and the zeros keep its wrap-around off the output.
    fft_height_ = fft_size(static_cast<int>(out_height_));
    fft_width_ = fft_size(static_cast<int>(out_width_));
    const std::size_t real_count = std::size_t(fft_height_) * fft_width_;
    spectrum_count_ = std::size_t(fft_height_) * (fft_width_ / 2 + 1);  // real input: half the spectrum

    d_image_ = device_buffer<float>(image_.size());
    d_kernel_ = device_buffer<float>(kernel_.size());
    d_output_ = device_buffer<float>(output_.size());
    d_padded_image_ = device_buffer<float>(real_count);
    d_padded_kernel_ = device_buffer<float>(real_count);
    d_image_spectrum_ = device_buffer<cufftComplex>(spectrum_count_);
    d_kernel_spectrum_ = device_buffer<cufftComplex>(spectrum_count_);

    // Plans are made once, here (untimed); both run on the rung's stream.
    LADDER_CUFFT_CHECK(cufftCreate(&forward_));
    LADDER_CUFFT_CHECK(cufftCreate(&inverse_));
    planned_ = true;
    std::size_t work_bytes = 0;
    LADDER_CUFFT_CHECK(cufftMakePlan2d(forward_, fft_height_, fft_width_, CUFFT_R2C, &work_bytes));
    LADDER_CUFFT_CHECK(cufftMakePlan2d(inverse_, fft_height_, fft_width_, CUFFT_C2R, &work_bytes));
    LADDER_CUFFT_CHECK(cufftSetStream(forward_, stream()));
    LADDER_CUFFT_CHECK(cufftSetStream(inverse_, stream()));
  }

  void upload() override {
    copy_to_device(d_image_, image_);
    copy_to_device(d_kernel_, kernel_);
  }

  void compute() override {
    pad(d_image_, height_, width_, d_padded_image_);
    pad(d_kernel_, rows_, columns_, d_padded_kernel_);
    LADDER_CUFFT_CHECK(cufftExecR2C(forward_, d_padded_image_.data(), d_image_spectrum_.data()));
    LADDER_CUFFT_CHECK(cufftExecR2C(forward_, d_padded_kernel_.data(), d_kernel_spectrum_.data()));
    const int n = static_cast<int>(spectrum_count_);
    const float scale = 1.0f / (float(fft_height_) * float(fft_width_));
    multiply_spectra<<<ceil_div(n, kThreadsPerBlock), kThreadsPerBlock, 0, stream()>>>(
        d_image_spectrum_.data(), d_kernel_spectrum_.data(), n, scale);
    LADDER_CUDA_CHECK_LAUNCH();
    // The inverse reuses the image's padded buffer (compute() pads it again next time).
    LADDER_CUFFT_CHECK(cufftExecC2R(inverse_, d_image_spectrum_.data(), d_padded_image_.data()));
    LADDER_CUDA_CHECK(cudaMemcpy2DAsync(d_output_.data(), out_width_ * sizeof(float), d_padded_image_.data(),
                                        fft_width_ * sizeof(float), out_width_ * sizeof(float), out_height_,
                                        cudaMemcpyDeviceToDevice, stream()));
  }

  void download() override { copy_to_host(output_, d_output_); }

 private:
  static constexpr int kThreadsPerBlock = 256;

  // padded = source (rows × columns) in the top-left corner of an
  // fft_height_ × fft_width_ array of zeros.
  void pad(const DeviceBuffer<float>& source, std::size_t rows, std::size_t columns, DeviceBuffer<float>& padded) {
    LADDER_CUDA_CHECK(cudaMemsetAsync(padded.data(), 0, padded.bytes(), stream()));
    LADDER_CUDA_CHECK(cudaMemcpy2DAsync(padded.data(), fft_width_ * sizeof(float), source.data(),
                                        columns * sizeof(float), columns * sizeof(float), rows,
                                        cudaMemcpyDeviceToDevice, stream()));
  }

  std::span<const float> image_, kernel_;
  std::span<float> output_;
  std::size_t height_ = 0, width_ = 0, rows_ = 0, columns_ = 0, out_height_ = 0, out_width_ = 0;
  int fft_height_ = 0, fft_width_ = 0;
  std::size_t spectrum_count_ = 0;
  DeviceBuffer<float> d_image_, d_kernel_, d_output_, d_padded_image_, d_padded_kernel_;
  DeviceBuffer<cufftComplex> d_image_spectrum_, d_kernel_spectrum_;
  cufftHandle forward_ = 0, inverse_ = 0;
  bool planned_ = false;
};

}  // namespace
LADDER_REGISTER_RUNG(convolution, cuda_fft, CudaFftConvolution);
}  // namespace ladder
