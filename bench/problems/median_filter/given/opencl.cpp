// opencl: local-memory tiles and selection in private memory
// (kernels/median_filter/median_filter.cl). Each work-group copies its
// 16×16 block and the reflected halo into local memory once, so the k²
// window reads come from local memory and only the copy deals with the
// borders; k and the pixel type are build options, so the selection's
// buffer has a fixed size the compiler can keep in registers.
//
// Given to both tracks (bench/problems/median_filter/given/): the participant's track
// builds the kernels from exercises/median_filter/kernels/median_filter.cl,
// where the participant writes median_tiles: the host checks for double
// precision where the run needs it, builds with the pixel type, k and the
// tile's side as build options (-DPIXEL, -DWORD, -DK, -DTILE=16) and
// launches one 16×16 work-group per 16×16 block of every frame. The kernel
// file is read at run time: rerun `ladder check` after editing it, without
// rebuilding.
#include "ladder/opencl.hpp"

#include <array>
#include <string>

#include "bench/problems/median_filter/median_filter.hpp"
#include "ladder/error.hpp"

namespace ladder {
namespace {

class OpenClMedianFilter final : public OpenClRung {
 public:
  explicit OpenClMedianFilter(const RungContext& context)
      : OpenClRung(context), settings_(median_filter::settings_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = &inputs.at("image");
    output_ = &outputs.at("output");
    const median_filter::Stack stack = median_filter::stack_of(*image_);
    const DType type = image_->dtype();
    if (type == DType::f64 || settings_.remove_outlier) {
      // The kernel takes double arguments (diff) and, for float64, pixels.
      cl_uint double_width = 0;
      LADDER_CL_CHECK(clGetDeviceInfo(device(), CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, sizeof double_width,
                                      &double_width, nullptr));
      if (double_width == 0) throw DeviceError("opencl: this device has no double precision (cl_khr_fp64)");
    }
    const std::string pixel = type == DType::u16 ? "ushort" : type == DType::f64 ? "double" : "float";
    const std::string word = type == DType::u16 ? "uint" : pixel;
    const std::string options = "-DPIXEL=" + pixel + " -DWORD=" + word + " -DK=" + std::to_string(settings_.size) +
                                " -DTILE=" + std::to_string(kTile);
    kernel_ = build_kernel("median_filter/median_filter.cl", "median_tiles", options);

    d_image_ = device_buffer<std::byte>(CL_MEM_READ_ONLY, image_->bytes());
    d_output_ = device_buffer<std::byte>(CL_MEM_WRITE_ONLY, image_->bytes());
    set_arguments(kernel_, d_image_.get(), d_output_.get(), cl_int(stack.height), cl_int(stack.width),
                  cl_int(settings_.remove_outlier), cl_int(settings_.bright), cl_double(settings_.diff));
    global_size_ = {stack.width, stack.height, stack.frames};  // a work-item per pixel, in whole tiles
  }

  void upload() override { write(d_image_, std::span<const std::byte>(image_->raw(), image_->bytes())); }
  void compute() override { enqueue(kernel_, global_size_, {kTile, kTile, 1}); }
  void download() override { read(std::span<std::byte>(output_->raw(), output_->bytes()), d_output_); }

 private:
  static constexpr std::size_t kTile = 16;  // 16×16 = 256 work-items per group
  median_filter::Settings settings_;
  const Array* image_ = nullptr;
  Array* output_ = nullptr;
  ClBuffer<std::byte> d_image_, d_output_;
  cl_kernel kernel_ = nullptr;
  std::array<std::size_t, 3> global_size_{};  // x, y, frame
};

}  // namespace
LADDER_REGISTER_RUNG(median_filter, opencl, OpenClMedianFilter);
}  // namespace ladder
