// opencl: the same addition on an OpenCL device, one work-item per group
// of four elements (kernels/vector_add/vector_add.cl), and the whole host
// program written out with the OpenCL API, in the five steps every OpenCL
// program takes (the other exercises' rungs get them from OpenClRung). On
// a GPU the arrays must first cross the PCIe bus: upload and download are
// where this rung loses its lead.
#include <vector>

#include "ladder/opencl.hpp"

namespace ladder {
namespace {

class OpenClVectorAdd final : public OpenClHostProgramRung {
 public:
  explicit OpenClVectorAdd(const RungContext& context) : OpenClHostProgramRung(context) {}

  ~OpenClVectorAdd() override {
    // Every object created is released, last created first.
    if (queue_) clFinish(queue_);
    for (cl_mem buffer : {d_a_, d_b_, d_c_})
      if (buffer) clReleaseMemObject(buffer);
    if (kernel_) clReleaseKernel(kernel_);
    if (program_) clReleaseProgram(program_);
    if (queue_) clReleaseCommandQueue(queue_);
    if (context_) clReleaseContext(context_);
  }

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    a_ = inputs.at("a").view<float>();
    b_ = inputs.at("b").view<float>();
    c_ = outputs.at("c").view<float>();
    cl_int status = CL_SUCCESS;

    // Step 1: the platform, its device (the ones `ladder devices` lists and
    // --opencl-device picks) and a context on it.
    cl_uint platform_count = 0;
    LADDER_CL_CHECK(clGetPlatformIDs(0, nullptr, &platform_count));
    std::vector<cl_platform_id> platforms(platform_count);
    LADDER_CL_CHECK(clGetPlatformIDs(platform_count, platforms.data(), nullptr));
    cl_uint device_count = 0;
    LADDER_CL_CHECK(clGetDeviceIDs(platforms.at(platform_index()), CL_DEVICE_TYPE_ALL, 0, nullptr, &device_count));
    std::vector<cl_device_id> devices(device_count);
    LADDER_CL_CHECK(
        clGetDeviceIDs(platforms.at(platform_index()), CL_DEVICE_TYPE_ALL, device_count, devices.data(), nullptr));
    device_ = devices.at(device_index());
    context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &status);
    LADDER_CL_CHECK_STATUS(clCreateContext, status);

    // Step 2: a command queue; profiling on, so that the launch is timed on the device.
    queue_ = clCreateCommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE, &status);
    LADDER_CL_CHECK_STATUS(clCreateCommandQueue, status);

    // Step 3: the program, compiled at run time for this device, and its kernel.
    const std::string source = opencl_program_source(kKernelFile, track());
    const char* text = source.c_str();
    program_ = clCreateProgramWithSource(context_, 1, &text, nullptr, &status);
    LADDER_CL_CHECK_STATUS(clCreateProgramWithSource, status);
    check_build(clBuildProgram(program_, 1, &device_, "-cl-std=CL1.2", nullptr, nullptr), program_, device_,
                kKernelFile);
    kernel_ = clCreateKernel(program_, "vector_add", &status);
    LADDER_CL_CHECK_STATUS(clCreateKernel, status);

    // Step 4: the buffers on the device (the copies into them are upload()).
    d_a_ = clCreateBuffer(context_, CL_MEM_READ_ONLY, a_.size_bytes(), nullptr, &status);
    LADDER_CL_CHECK_STATUS(clCreateBuffer, status);
    d_b_ = clCreateBuffer(context_, CL_MEM_READ_ONLY, b_.size_bytes(), nullptr, &status);
    LADDER_CL_CHECK_STATUS(clCreateBuffer, status);
    d_c_ = clCreateBuffer(context_, CL_MEM_WRITE_ONLY, c_.size_bytes(), nullptr, &status);
    LADDER_CL_CHECK_STATUS(clCreateBuffer, status);

    // Step 5 begins: the kernel's arguments, in the order of its parameters.
    const cl_uint n = static_cast<cl_uint>(c_.size());
    LADDER_CL_CHECK(clSetKernelArg(kernel_, 0, sizeof(cl_mem), &d_a_));
    LADDER_CL_CHECK(clSetKernelArg(kernel_, 1, sizeof(cl_mem), &d_b_));
    LADDER_CL_CHECK(clSetKernelArg(kernel_, 2, sizeof(cl_mem), &d_c_));
    LADDER_CL_CHECK(clSetKernelArg(kernel_, 3, sizeof(cl_uint), &n));
  }

  // Non-blocking copies (CL_FALSE): the queue runs them in order, before the kernel.
  void upload() override {
    LADDER_CL_CHECK(clEnqueueWriteBuffer(queue_, d_a_, CL_FALSE, 0, a_.size_bytes(), a_.data(), 0, nullptr, nullptr));
    LADDER_CL_CHECK(clEnqueueWriteBuffer(queue_, d_b_, CL_FALSE, 0, b_.size_bytes(), b_.data(), 0, nullptr, nullptr));
  }

  // One work-item per four elements, in whole work-groups (OpenCL 1.2 asks
  // for a global size that is a multiple of the group's): the kernel checks
  // its index. The event lets the harness read the launch's device time.
  void compute() override {
    const std::size_t local = kWorkGroupSize;
    const std::size_t global = round_up(ceil_div(c_.size(), std::size_t{4}), local);
    LADDER_CL_CHECK(clEnqueueNDRangeKernel(queue_, kernel_, 1, nullptr, &global, &local, 0, nullptr, compute_event()));
  }

  // The read-back; the harness waits for the queue to finish before it uses c.
  void download() override {
    LADDER_CL_CHECK(clEnqueueReadBuffer(queue_, d_c_, CL_FALSE, 0, c_.size_bytes(), c_.data(), 0, nullptr, nullptr));
  }

 private:
  cl_command_queue compute_queue() const override { return queue_; }

  static constexpr const char* kKernelFile = "vector_add/vector_add.cl";
  static constexpr std::size_t kWorkGroupSize = 256;
  std::span<const float> a_, b_;
  std::span<float> c_;
  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  cl_program program_ = nullptr;
  cl_kernel kernel_ = nullptr;
  cl_mem d_a_ = nullptr, d_b_ = nullptr, d_c_ = nullptr;
};

}  // namespace
LADDER_REGISTER_RUNG(vector_add, opencl, OpenClVectorAdd);
}  // namespace ladder
