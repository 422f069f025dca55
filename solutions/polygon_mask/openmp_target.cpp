// openmp_target: the polygon on the GPU by directives. Not the openmp
// rung's loop: its scanline keeps a std::vector of crossings a row and
// sorts it, which a target region cannot (no allocation, no std::sort on
// the device). What ports is the naive rung's idea, one even-odd test a
// pixel, which is also the cuda rung's: a pixel a GPU thread, its loop
// over the edges, `collapse(2)` over the rows and columns. The vertices
// and the mask are mapped once, in prepare; upload and download copy them
// with `target update`, as vector_add's openmp_target rung does.
#include <cstdint>

#include "ladder/openmp_target.hpp"

namespace ladder {
namespace {

class OpenMpTargetPolygonMask final : public OpenMpTargetRung {
 public:
  explicit OpenMpTargetPolygonMask(const RungContext&) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    vertices_ = inputs.at("vertices").view<double>().data();
    coordinates_ = static_cast<long>(inputs.at("vertices").size());
    mask_ = outputs.at("mask").view<std::uint8_t>().data();
    height_ = static_cast<long>(outputs.at("mask").shape()[0]);
    width_ = static_cast<long>(outputs.at("mask").shape()[1]);
    pixels_ = height_ * width_;
    require_device_memory(sizeof(double) * coordinates_ + pixels_);
#pragma omp target enter data map(alloc : vertices_[0 : coordinates_], mask_[0 : pixels_])
  }

  void upload() override {
#pragma omp target update to(vertices_[0 : coordinates_])
  }

  void compute() override {
    // Locals, not members, in the region (vector_add's openmp_target.cpp says why).
    const double* vertices = vertices_;
    std::uint8_t* mask = mask_;
    const long n = coordinates_ / 2, height = height_, width = width_;
#pragma omp target teams distribute parallel for collapse(2)
    for (long y = 0; y < height; ++y) {
      for (long x = 0; x < width; ++x) {
        const double tx = static_cast<double>(x), ty = static_cast<double>(y);
        bool inside = false;
        double x0 = vertices[2 * (n - 1)], y0 = vertices[2 * (n - 1) + 1];  // edge i: vertex i - 1 to i
        for (long i = 0; i < n; ++i) {
          const double x1 = vertices[2 * i], y1 = vertices[2 * i + 1];
          const bool above1 = y1 >= ty;
          // matplotlib's crossing test, as the naive rung's: the same bits.
          if ((y0 >= ty) != above1 && ((y1 - ty) * (x0 - x1) >= (x1 - tx) * (y0 - y1)) == above1) inside = !inside;
          x0 = x1;
          y0 = y1;
        }
        mask[y * width + x] = inside;
      }
    }
  }

  void download() override {
#pragma omp target update from(mask_[0 : pixels_])
  }

  ~OpenMpTargetPolygonMask() override {
    if (mask_ != nullptr) {
#pragma omp target exit data map(delete : vertices_[0 : coordinates_], mask_[0 : pixels_])
    }
  }

 private:
  const double* vertices_ = nullptr;
  std::uint8_t* mask_ = nullptr;
  long coordinates_ = 0, height_ = 0, width_ = 0, pixels_ = 0;
};

}  // namespace
LADDER_REGISTER_RUNG(polygon_mask, openmp_target, OpenMpTargetPolygonMask);
}  // namespace ladder
