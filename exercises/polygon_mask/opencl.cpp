// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// opencl: the mask on an OpenCL device, one work-item per pixel, the
// vertices in constant memory. The host side is given; you write
// polygon_mask_per_pixel in kernels/polygon_mask.cl, and rerun `ladder
// check` without rebuilding: the track reads the file.
// ==== end
#include "ladder/opencl.hpp"

#include <algorithm>
// ==== exercise only
#include <string>
// ==== end

namespace ladder {
namespace {

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
    // ==== exercise only
    d_mask_ = device_buffer<std::uint8_t>(CL_MEM_WRITE_ONLY, mask_.size());
    // The launch: work-groups of up to 256 work-items tile each row (a
    // narrow row gets a narrower group), so a group never spans two rows;
    // the row's last group may overhang it. PIXELS_PER_ITEM=1: one pixel
    // per work-item (the solution's kernel takes 4).
    local_ = std::min<std::size_t>(256, (width + 31) / 32 * 32);
    const auto groups_per_row = static_cast<cl_uint>(ceil_div(width, local_));
    global_ = std::size_t{height} * groups_per_row * local_;
    kernel_ = build_kernel("polygon_mask/polygon_mask.cl", "polygon_mask_per_pixel", "-DPIXELS_PER_ITEM=1");
    set_arguments(kernel_, d_vertices_.get(), n, width, groups_per_row, d_mask_.get());
    // ==== end
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
// ==== exercise only
LADDER_REGISTER_RUNG(polygon_mask, opencl, OpenClPolygonMask);
// ==== end
}  // namespace ladder
