// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// cuda: the mask as a CUDA kernel (kernels/polygon_mask.cuh), one thread per
// pixel, the vertices in __constant__ memory. The host side is given:
// copying the vertices, the launch, the copy back.
// ==== end
#include <algorithm>
// ==== exercise only
#include <string>

#include "kernels/polygon_mask.cuh"
// ==== end
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"

namespace ladder {
namespace {

class CudaPolygonMask final : public CudaRung {
 public:
  explicit CudaPolygonMask(const RungContext& context) : CudaRung(context) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    vertices_ = inputs.at("vertices").view<double>();
    mask_ = outputs.at("mask").view<std::uint8_t>();
    height_ = static_cast<unsigned>(outputs.at("mask").shape()[0]);
    width_ = static_cast<unsigned>(outputs.at("mask").shape()[1]);
    n_ = static_cast<unsigned>(vertices_.size() / 2);
    if (n_ >
        static_cast<unsigned>(kMaxPolygonVertices))  // validate() refuses these; the constant array cannot hold them
      throw UsageError("polygon_mask on CUDA takes at most " + std::to_string(kMaxPolygonVertices) + " vertices");
    d_mask_ = device_buffer<std::uint8_t>(mask_.size());
    // ==== exercise only
    // Blocks of up to 256 threads tile each row (a narrow row gets a
    // narrower block), so a block never spans two rows.
    threads_ = std::min(256u, (width_ + 31) / 32 * 32);
    blocks_per_row_ = ceil_div(width_, threads_);
    blocks_ = height_ * blocks_per_row_;
#ifdef LADDER_TODO_CUDA_KERNEL  // kernels/polygon_mask.cuh still holds its TODO line
    LADDER_TODO(LADDER_TODO_CUDA_KERNEL);
#endif
    // ==== end
  }

  void upload() override {
    // ==== exercise only
    LADDER_CUDA_CHECK(cudaMemcpyToSymbolAsync(c_polygon_vertices, vertices_.data(), vertices_.size_bytes(), 0,
                                              cudaMemcpyHostToDevice, stream()));
    // ==== end
  }
  void compute() override {
    // ==== exercise only
    polygon_mask_per_pixel<<<blocks_, threads_, 0, stream()>>>(n_, width_, blocks_per_row_, d_mask_.data());
    // ==== end
    LADDER_CUDA_CHECK_LAUNCH();
  }
  void download() override { copy_to_host(mask_, d_mask_); }

 private:
  std::span<const double> vertices_;
  std::span<std::uint8_t> mask_;
  DeviceBuffer<std::uint8_t> d_mask_;
  unsigned height_ = 0, width_ = 0, n_ = 0;
  unsigned threads_ = 1, blocks_ = 1, blocks_per_row_ = 1;
};

}  // namespace
// ==== exercise only
LADDER_REGISTER_RUNG(polygon_mask, cuda, CudaPolygonMask);
// ==== end
}  // namespace ladder
