// opencl: two kernels (kernels/polygon_mask/polygon_mask.cl): per pixel is
// naive's loop with the vertices in constant memory, per row is serial's
// scanline. The faster on a GPU is `opencl`, the other an extra rung.
#include "ladder/opencl.hpp"

#include <algorithm>

namespace ladder {
namespace {

enum class Layout { per_pixel, per_row };
constexpr unsigned kPixelsPerItem = 4;  // neighbouring pixels per work-item of the per-pixel kernel

template <Layout layout>
class OpenClPolygonMask final : public OpenClRung {
 public:
  explicit OpenClPolygonMask(const RungContext& context) : OpenClRung(context) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    vertices_ = inputs.at("vertices").view<double>();
    mask_ = outputs.at("mask").view<std::uint8_t>();
    const auto height = static_cast<cl_uint>(outputs.at("mask").shape()[0]);
    const auto width = static_cast<cl_uint>(outputs.at("mask").shape()[1]);
    const auto n = static_cast<cl_uint>(vertices_.size() / 2);
    d_vertices_ = device_buffer<double>(CL_MEM_READ_ONLY, vertices_.size());
    // Per row, the kernel reads its row back (the running XOR over the
    // flags it wrote): the mask is read-write, as OpenCL asks (Oclgrind
    // reported the reads of a write-only buffer).
    d_mask_ = ClBuffer<std::uint8_t>(
        context(), layout == Layout::per_row ? CL_MEM_READ_WRITE : CL_MEM_WRITE_ONLY, mask_.size());
    // The launch: per pixel, groups of up to 256 work-items, each
    // kPixelsPerItem pixels (PIXELS_PER_ITEM in the kernel), tile each row
    // (narrow rows get narrower groups); per row, one work-item per row.
    if constexpr (layout == Layout::per_pixel) {
      const std::size_t items_per_row = ceil_div(width, kPixelsPerItem);
      local_ = std::min<std::size_t>(256, (items_per_row + 31) / 32 * 32);
      const auto groups_per_row = static_cast<cl_uint>(ceil_div(items_per_row, local_));
      global_ = std::size_t{height} * groups_per_row * local_;
      kernel_ = build_kernel("polygon_mask/polygon_mask.cl", "polygon_mask_per_pixel",
                             "-DPIXELS_PER_ITEM=" + std::to_string(kPixelsPerItem));
      set_arguments(kernel_, d_vertices_.get(), n, width, groups_per_row, d_mask_.get());
    } else {
      local_ = 64;
      global_ = height;
      kernel_ = build_kernel("polygon_mask/polygon_mask.cl", "polygon_mask_per_row");
      set_arguments(kernel_, d_vertices_.get(), n, width, height, d_mask_.get());
    }
  }

  void upload() override { write(d_vertices_, vertices_); }
  void compute() override { enqueue(kernel_, global_, local_); }
  void download() override { read(mask_, d_mask_); }

 private:
  std::span<const double> vertices_;
  std::span<std::uint8_t> mask_;
  ClBuffer<double> d_vertices_;
  ClBuffer<std::uint8_t> d_mask_;
  cl_kernel kernel_ = nullptr;
  std::size_t global_ = 0, local_ = 0;
};

}  // namespace
// To make per row the rung: swap per_pixel and per_row in these two lines
// (and name the extra opencl_per_pixel in PolygonMask::rungs()).
LADDER_REGISTER_RUNG(polygon_mask, opencl, OpenClPolygonMask<Layout::per_pixel>);
LADDER_REGISTER_RUNG(polygon_mask, opencl_per_row, OpenClPolygonMask<Layout::per_row>);
}  // namespace ladder
