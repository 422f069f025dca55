// openmp_target: one GPU thread for each output pixel, by directives alone
// (`target teams distribute parallel for collapse(2)` over the output's
// rows and columns). The image, the kernel and the output are mapped to the
// device once, in prepare, and copied by `target update`, as vector_add's
// openmp_target rung does. Every tap is read from global memory, with the
// image's edges folded into the loop limits (no zero padding, no branch a
// tap): the step before the cuda rungs' shared-memory tiles, which
// directives cannot ask for.
#include "bench/problems/convolution/convolution.hpp"
#include "ladder/openmp_target.hpp"

namespace ladder {
namespace {

class OpenMpTargetConvolution final : public OpenMpTargetRung {
 public:
  explicit OpenMpTargetConvolution(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<float>().data();
    kernel_ = inputs.at("kernel").view<float>().data();
    output_ = outputs.at("output").view<float>().data();
    sizes_ = convolution::sizes_of(inputs);
    image_size_ = long(sizes_.height) * sizes_.width;
    kernel_size_ = long(sizes_.rows) * sizes_.columns;
    output_size_ = long(sizes_.out_height()) * sizes_.out_width();
    require_device_memory(sizeof(float) * (image_size_ + kernel_size_ + output_size_));
#pragma omp target enter data map(alloc : image_[0 : image_size_], kernel_[0 : kernel_size_], \
                                      output_[0 : output_size_])
  }

  void upload() override {
#pragma omp target update to(image_[0 : image_size_], kernel_[0 : kernel_size_])
  }

  void compute() override {
    const float* image = image_;
    const float* kernel = kernel_;
    float* output = output_;
    const long height = sizes_.height, width = sizes_.width, rows = sizes_.rows, columns = sizes_.columns;
    const long out_height = sizes_.out_height(), out_width = sizes_.out_width();
#pragma omp target teams distribute parallel for collapse(2)
    for (long y = 0; y < out_height; ++y)
      for (long x = 0; x < out_width; ++x) {
        // The naive rung's sum, over only the taps whose pixel (y - i, x - j) is in the image.
        const long i_first = y - (height - 1) > 0 ? y - (height - 1) : 0, i_end = y + 1 < rows ? y + 1 : rows;
        const long j_first = x - (width - 1) > 0 ? x - (width - 1) : 0, j_end = x + 1 < columns ? x + 1 : columns;
        float sum = 0.0f;
        for (long i = i_first; i < i_end; ++i)
          for (long j = j_first; j < j_end; ++j) sum += kernel[i * columns + j] * image[(y - i) * width + (x - j)];
        output[y * out_width + x] = sum;
      }
  }

  void download() override {
#pragma omp target update from(output_[0 : output_size_])
  }

  ~OpenMpTargetConvolution() override {
    if (output_ != nullptr) {
#pragma omp target exit data map(delete : image_[0 : image_size_], kernel_[0 : kernel_size_], \
                                     output_[0 : output_size_])
    }
  }

 private:
  const float* image_ = nullptr;
  const float* kernel_ = nullptr;
  float* output_ = nullptr;
  convolution::Sizes sizes_;
  long image_size_ = 0, kernel_size_ = 0, output_size_ = 0;
};

}  // namespace
LADDER_REGISTER_RUNG(convolution, openmp_target, OpenMpTargetConvolution);
}  // namespace ladder
