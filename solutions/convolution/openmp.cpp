// openmp: the serial rung (padded.hpp) with the image rows and then the
// output rows shared out among the threads. Each output row is written by
// one thread only, and the padded image is only read, so the threads never
// wait for one another.
#include "ladder/registry.hpp"
#include "padded.hpp"

namespace ladder {
namespace {

class OpenMpConvolution final : public OpenMpRung {
 public:
  explicit OpenMpConvolution(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override { convolution_.prepare(inputs, outputs); }

  void compute() override {
    const long image_rows = convolution_.image_rows(), output_rows = convolution_.output_rows();
#pragma omp parallel
    {
#pragma omp for schedule(static)
      for (long r = 0; r < image_rows; ++r) convolution_.copy_image_row(r);
      // The implicit barrier of the loop above: the whole image is in before any row is computed.
#pragma omp for schedule(static)
      for (long y = 0; y < output_rows; ++y) convolution_.output_row(y);
    }
  }

 private:
  convolution::PaddedConvolution convolution_;
};

}  // namespace
LADDER_REGISTER_RUNG(convolution, openmp, OpenMpConvolution);
}  // namespace ladder
