// opencl: tiles in local memory (kernels/spot_finding/dispersion.cl). A
// work-group loads its 32 × 32 tile and the k-pixel halo around it
// together, every work-item a few pixels, then sums across and down in
// local memory: 2(2k+1) additions a pixel, and every global byte read about
// once. The program is built for the run's k, so the local arrays have
// fixed sizes. DIALS' test needs double precision (cl_khr_fp64).
//
// Given to both tracks (bench/problems/spot_finding/given/): the participant's track builds
// the kernels from exercises/spot_finding/kernels/dispersion.cl, where the
// participant writes dispersion_mask: the host checks for double precision,
// builds for the run's k (-DRADIUS=k, and the tile's size) and launches one
// work-group of 32 × 8 work-items per 32 × 32 tile of every frame. The
// kernel file is read at run time: rerun `ladder check` after editing it,
// without rebuilding.
#include "ladder/opencl.hpp"

#include <array>
#include <cmath>

#include "bench/problems/spot_finding/spot_finding.hpp"
#include "ladder/error.hpp"

namespace ladder {
namespace {

using spot_finding::Settings;

constexpr int kTileWidth = 32, kTileHeight = 32, kGroupRows = 8;

class OpenClSpotFinding final : public OpenClRung {
 public:
  explicit OpenClSpotFinding(const RungContext& context)
      : OpenClRung(context), settings_(spot_finding::settings_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<std::uint16_t>();
    mask_ = inputs.at("mask").view<std::uint8_t>();
    signal_ = outputs.at("signal").view<std::uint8_t>();
    const spot_finding::Stack stack = spot_finding::stack_of(inputs.at("image"));

    cl_device_fp_config fp64 = 0;
    LADDER_CL_CHECK(clGetDeviceInfo(device(), CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(fp64), &fp64, nullptr));
    if (fp64 == 0)
      throw DeviceError("DIALS' test is evaluated in double precision; this OpenCL device has no cl_khr_fp64");
    std::size_t max_group = 0;
    LADDER_CL_CHECK(clGetDeviceInfo(device(), CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(max_group), &max_group, nullptr));
    if (max_group < kGroupItems)
      throw DeviceError("the dispersion kernel needs work-groups of " + std::to_string(kGroupItems) +
                        " work-items; this device allows " + std::to_string(max_group));

    d_image_ = device_buffer<cl_ushort>(CL_MEM_READ_ONLY, image_.size());
    d_mask_ = device_buffer<cl_uchar>(CL_MEM_READ_ONLY, mask_.size());
    d_signal_ = device_buffer<cl_uchar>(CL_MEM_WRITE_ONLY, signal_.size());

    // The launch: one group per tile of each frame, TILE_W × GROUP_ROWS work-items.
    const auto height = static_cast<cl_int>(stack.height), width = static_cast<cl_int>(stack.width);
    global_size_ = {round_up(stack.width, kTileWidth), ceil_div(stack.height, kTileHeight) * kGroupRows, stack.frames};
    const std::string options = "-DRADIUS=" + std::to_string(settings_.kernel_size) +
                                " -DTILE_W=" + std::to_string(kTileWidth) + " -DTILE_H=" + std::to_string(kTileHeight) +
                                " -DGROUP_ROWS=" + std::to_string(kGroupRows);
    kernel_ = build_kernel("spot_finding/dispersion.cl", "dispersion_mask", options);
    set_arguments(kernel_, d_image_.get(), d_mask_.get(), d_signal_.get(), height, width,
                  static_cast<cl_uint>(settings_.min_count), settings_.threshold, settings_.sigma_b, settings_.sigma_s,
                  std::sqrt(2 * (static_cast<double>(settings_.window()) - 1)));  // as the device's sqrt rounds it
  }

  void upload() override {
    write(d_image_, image_);
    write(d_mask_, mask_);
  }

  void compute() override { enqueue(kernel_, global_size_, {kTileWidth, kGroupRows, 1}); }

  void download() override { read(signal_, d_signal_); }

 private:
  static constexpr std::size_t kGroupItems = kTileWidth * kGroupRows;
  Settings settings_;
  std::span<const std::uint16_t> image_;
  std::span<const std::uint8_t> mask_;
  std::span<std::uint8_t> signal_;
  ClBuffer<cl_ushort> d_image_;
  ClBuffer<cl_uchar> d_mask_;
  ClBuffer<cl_uchar> d_signal_;
  std::array<std::size_t, 3> global_size_{};  // x, y, frame
  cl_kernel kernel_ = nullptr;
};

}  // namespace
LADDER_REGISTER_RUNG(spot_finding, opencl, OpenClSpotFinding);
}  // namespace ladder
