// ==== exercise only (between "// ====" lines: the exercise's own text; all other lines are the solution's)
// opencl: the addition on an OpenCL device, one work-item per element, and
// the whole host program around it, written by you with the OpenCL API in
// its five steps (task sheet, step 3). You also write the kernel, in
// kernels/vector_add.cl: it is read at run time, this file needs a rebuild.
// Check every call: LADDER_CL_CHECK(call) for a call that returns its
// status, LADDER_CL_CHECK_STATUS(call, status) for one that hands it back
// through its last argument. A failure then names the call, the error and
// the step.
// ==== end
#include <vector>

// ==== exercise only
#include "ladder/error.hpp"
// ==== end
#include "ladder/opencl.hpp"

namespace ladder {
namespace {

class OpenClVectorAdd final : public OpenClHostProgramRung {
 public:
  explicit OpenClVectorAdd(const RungContext& context) : OpenClHostProgramRung(context) {}

  // ==== exercise only
  // Every object created is released, last created first.
  // ==== end
  ~OpenClVectorAdd() override {
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

    // ==== yours
    // TODO step 1: the platform and device, then a context on the device.
    //   clGetPlatformIDs lists the platforms: take the one at platform_index();
    //   clGetDeviceIDs (CL_DEVICE_TYPE_ALL) lists its devices: take the one at
    //   device_index() (these are the indices `ladder devices` prints).
    //   Then device_ and context_ (clCreateContext).
    // TODO step 2: queue_, a command queue on that device (clCreateCommandQueue),
    //   created with CL_QUEUE_PROFILING_ENABLE: the harness times your kernel
    //   with the profiling times of its launch.
    // TODO step 3: program_ and kernel_. The kernel's source text is
    //   opencl_program_source(kKernelFile, track()); clCreateProgramWithSource,
    //   then clBuildProgram, whose status you hand to
    //   check_build(status, program_, device_, kKernelFile): it puts the
    //   compiler's messages in the error. Then clCreateKernel, "vector_add".
    // TODO step 4: d_a_, d_b_, d_c_, buffers on the device of the arrays'
    //   sizes in bytes (a_.size_bytes(), ...), read-only or write-only.
    // TODO step 5, its first half: the kernel's four arguments (clSetKernelArg),
    //   in the order of its parameters; n as a cl_uint.
    LADDER_TODO("opencl: write the host program in exercises/vector_add/opencl.cpp (prepare, upload, compute, "
                "download), then delete this line");
    // ==== end
  }

  void upload() override {
    // ==== yours
    // TODO step 4, the copies: a_ into d_a_ and b_ into d_b_ (clEnqueueWriteBuffer,
    //   non-blocking: CL_FALSE; the queue runs its commands in order).
    // ==== end
  }

  void compute() override {
    // ==== yours
    // TODO step 5: launch the kernel over c_.size() work-items in groups of
    //   kWorkGroupSize (clEnqueueNDRangeKernel, one dimension). OpenCL 1.2
    //   wants the global size a multiple of the group size: round it up
    //   (round_up(n, k)). Pass compute_event() as the last argument, so that
    //   the harness can read the launch's time on the device.
    // ==== end
  }

  void download() override {
    // ==== yours
    // TODO step 5, the read-back: d_c_ into c_ (clEnqueueReadBuffer, CL_FALSE:
    //   the harness waits for the queue before it reads c).
    // ==== end
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
