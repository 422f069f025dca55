// cuda: two kernels (kernels/polygon_mask/polygon_mask.cuh): per pixel is
// naive's loop with the vertices in __constant__ memory, per row is serial's
// scanline. The faster on a GPU is `cuda`, the other an extra rung.
#include <algorithm>

#include "kernels/polygon_mask/polygon_mask.cuh"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"

namespace ladder {
namespace {

enum class Layout { per_pixel, per_row };

template <Layout layout>
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
    // The launch: per pixel, blocks of up to 256 threads, each thread
    // kPixelsPerThread pixels, tile each row (narrow rows get narrower
    // blocks); per row, one thread per row.
    if constexpr (layout == Layout::per_pixel) {
      const unsigned threads_per_row = ceil_div(width_, kPixelsPerThread);
      threads_ = std::min(256u, (threads_per_row + 31) / 32 * 32);
      blocks_per_row_ = ceil_div(threads_per_row, threads_);
      blocks_ = height_ * blocks_per_row_;  // at most 2^26 + 2^20 for the canvases validate() accepts
    } else {
      d_vertices_ = device_buffer<double>(vertices_.size());
      threads_ = 64;
      blocks_ = ceil_div(height_, threads_);
    }
  }

  void upload() override {
    if constexpr (layout == Layout::per_pixel) {
      LADDER_CUDA_CHECK(cudaMemcpyToSymbolAsync(c_polygon_vertices, vertices_.data(), vertices_.size_bytes(), 0,
                                                cudaMemcpyHostToDevice, stream()));
    } else {
      copy_to_device(d_vertices_, vertices_);
    }
  }
  void compute() override {
    if constexpr (layout == Layout::per_pixel) {
      polygon_mask_per_pixel<<<blocks_, threads_, 0, stream()>>>(n_, width_, blocks_per_row_, d_mask_.data());
    } else {
      polygon_mask_per_row<<<blocks_, threads_, 0, stream()>>>(reinterpret_cast<const double2*>(d_vertices_.data()), n_,
                                                               width_, height_, d_mask_.data());
    }
    LADDER_CUDA_CHECK_LAUNCH();
  }
  void download() override { copy_to_host(mask_, d_mask_); }

 private:
  std::span<const double> vertices_;
  std::span<std::uint8_t> mask_;
  DeviceBuffer<double> d_vertices_;  // per row only; per pixel reads c_polygon_vertices
  DeviceBuffer<std::uint8_t> d_mask_;
  unsigned height_ = 0, width_ = 0, n_ = 0;
  unsigned threads_ = 1, blocks_ = 1, blocks_per_row_ = 1;
};

}  // namespace
// To make per row the rung: swap per_pixel and per_row in these two lines
// (and name the extra cuda_per_pixel in PolygonMask::rungs()).
LADDER_REGISTER_RUNG(polygon_mask, cuda, CudaPolygonMask<Layout::per_pixel>);
LADDER_REGISTER_RUNG(polygon_mask, cuda_per_row, CudaPolygonMask<Layout::per_row>);
}  // namespace ladder
