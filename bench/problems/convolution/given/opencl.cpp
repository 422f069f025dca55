// opencl: the image in local-memory tiles, the kernel in constant memory
// (kernels/convolution/convolution.cl). Each work-group loads the padded
// region its 16×16 outputs read once; the K·L reads per output then come
// from local memory, and the bounds checks happen only while loading.
//
// Given to both tracks (bench/problems/convolution/given/): the participant's track builds
// the kernels from exercises/convolution/kernels/convolution.cl, where the
// participant writes convolve_tiles: the host checks that a tile fits in
// local memory, passes the kernel's size and the tile size as build options
// and launches one 16×16 work-group per 16×16 block of outputs. The kernel
// file is read at run time: rerun `ladder check` after editing it, without
// rebuilding.
#include "ladder/opencl.hpp"

#include <array>
#include <string>

#include "ladder/error.hpp"

namespace ladder {
namespace {

class OpenClConvolution final : public OpenClRung {
 public:
  explicit OpenClConvolution(const RungContext& context) : OpenClRung(context) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    image_ = inputs.at("image").view<float>();
    kernel_ = inputs.at("kernel").view<float>();
    output_ = outputs.at("output").view<float>();
    const std::size_t height = inputs.at("image").shape()[0], width = inputs.at("image").shape()[1];
    const std::size_t rows = inputs.at("kernel").shape()[0], columns = inputs.at("kernel").shape()[1];
    const std::size_t out_height = height + rows - 1, out_width = width + columns - 1;

    // The tile must fit in local memory; the weights go to __global memory
    // when they do not fit in the constant buffer.
    cl_ulong local_bytes = 0, constant_bytes = 0;
    LADDER_CL_CHECK(clGetDeviceInfo(device(), CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_bytes, &local_bytes, nullptr));
    LADDER_CL_CHECK(
        clGetDeviceInfo(device(), CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, sizeof constant_bytes, &constant_bytes, nullptr));
    const std::size_t tile_bytes = (kTile + rows - 1) * (kTile + columns - 1) * sizeof(float);
    if (tile_bytes > local_bytes)
      throw DeviceError("opencl: a " + std::to_string(rows) + "×" + std::to_string(columns) + " kernel needs a " +
                        std::to_string(tile_bytes) + "-byte local tile, more than this device's " +
                        std::to_string(local_bytes) + " bytes; the serial, openmp and cuda_fft rungs take any kernel");
    const bool constant = kernel_.size_bytes() <= constant_bytes;

    d_image_ = device_buffer<float>(CL_MEM_READ_ONLY, image_.size());
    d_kernel_ = device_buffer<float>(CL_MEM_READ_ONLY, kernel_.size());
    d_output_ = device_buffer<float>(CL_MEM_WRITE_ONLY, output_.size());
    // The kernel's size as compile-time constants: the loops over it get fixed bounds.
    const std::string options = "-DKERNEL_ROWS=" + std::to_string(rows) + " -DKERNEL_COLS=" + std::to_string(columns) +
                                " -DTILE=" + std::to_string(kTile) +
                                " -DWEIGHTS_SPACE=" + (constant ? "__constant" : "__global");
    kernel_function_ = build_kernel("convolution/convolution.cl", "convolve_tiles", options);
    set_arguments(kernel_function_, d_image_.get(), static_cast<cl_int>(height), static_cast<cl_int>(width),
                  d_kernel_.get(), d_output_.get(), static_cast<cl_int>(out_height), static_cast<cl_int>(out_width));
    global_size_ = {out_width, out_height};  // a work-item per output, in whole tiles
  }

  void upload() override {
    write(d_image_, image_);
    write(d_kernel_, kernel_);
  }
  void compute() override { enqueue(kernel_function_, global_size_, {kTile, kTile}); }
  void download() override { read(output_, d_output_); }

 private:
  static constexpr std::size_t kTile = 16;  // 16×16 = 256 work-items per group
  std::span<const float> image_, kernel_;
  std::span<float> output_;
  ClBuffer<float> d_image_, d_kernel_, d_output_;
  cl_kernel kernel_function_ = nullptr;
  std::array<std::size_t, 2> global_size_{};  // x, y
};

}  // namespace
LADDER_REGISTER_RUNG(convolution, opencl, OpenClConvolution);
}  // namespace ladder
