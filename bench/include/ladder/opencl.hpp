#pragma once
// OpenCL support for rungs: one checked-call macro with error names, an
// owning buffer, and two base classes that time compute with profiling
// events (start of the first command to end of the last): OpenClRung,
// which holds the context and queue and builds programs from kernels/, and
// OpenClHostProgramRung, for a rung that writes the whole host program
// itself (vector_add's opencl rung: HandsOnOpenCL's first exercise).
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ladder/registry.hpp"
#include "ladder/rung.hpp"

#define LADDER_CL_CHECK(expr) ::ladder::opencl_check((expr), #expr, __FILE__, __LINE__)
// For the calls that return an object and hand their status back through
// their last argument: LADDER_CL_CHECK_STATUS(clCreateContext, status).
#define LADDER_CL_CHECK_STATUS(call, status) ::ladder::opencl_check((status), #call, __FILE__, __LINE__)

namespace ladder {

const char* opencl_error_name(cl_int status);
// Throws DeviceError naming the call, the error and where; for the calls of
// a host program's five steps it names the step too (see host_program_step).
void opencl_check(cl_int status, const char* call, const char* file, int line);
// The step of an OpenCL host program that a call (its text, from its name
// on) belongs to, e.g. "step 2, the command queue"; empty for other calls.
std::string host_program_step(const std::string& call);

// The OpenCL C source of kernels/<file> for the track (kernel_source);
// NotImplemented while a participant's kernel still has its LADDER_TODO line.
std::string opencl_program_source(const std::string& file, const std::string& track);
// After clBuildProgram: throws DeviceError with the compiler's log when the
// build failed, so that a typo in a kernel shows its line and message.
void check_build(cl_int status, cl_program program, cl_device_id device, const std::string& file);

struct OpenClDevice {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  int platform_index = 0;
  int device_index = 0;
  std::string name;
  bool is_gpu = false;
  std::string note;  // e.g. "no OpenCL GPU: fell back to the CPU platform PoCL"
};
// The options' (or LADDER_OPENCL_DEVICE's) "P:D", else the first GPU, else
// the first CPU device. UsageError when a named device is not there.
OpenClDevice select_opencl_device(const RunOptions& options);

// An owning device buffer of `count` elements of T.
template <class T>
class ClBuffer {
 public:
  ClBuffer() = default;
  // `guard_bytes` more after the data: OpenClRung's guard zone.
  ClBuffer(cl_context context, cl_mem_flags flags, std::size_t count, std::size_t guard_bytes = 0) : count_(count) {
    cl_int status = CL_SUCCESS;
    memory_ = clCreateBuffer(context, flags, (count ? count : 1) * sizeof(T) + guard_bytes, nullptr, &status);
    LADDER_CL_CHECK_STATUS(clCreateBuffer, status);
  }
  ~ClBuffer() {
    if (memory_) clReleaseMemObject(memory_);
  }
  ClBuffer(ClBuffer&& other) noexcept : memory_(other.memory_), count_(other.count_) { other.memory_ = nullptr; }
  ClBuffer& operator=(ClBuffer&& other) noexcept {
    std::swap(memory_, other.memory_);
    std::swap(count_, other.count_);
    return *this;
  }
  cl_mem get() const { return memory_; }
  std::size_t size() const { return count_; }

 private:
  cl_mem memory_ = nullptr;
  std::size_t count_ = 0;
};

// Evicts a GPU's cache before a timed repetition by reading a buffer of
// twice its size, so that what is left in the cache is clean (or, with
// --evict-by-writing, by filling it); nothing on a CPU device, nor with
// --warm. CudaRung::evict_caches says why reading.
class ClCacheScrubber {
 public:
  ClCacheScrubber() = default;
  ClCacheScrubber(cl_context context, const OpenClDevice& device, const RunOptions& options);
  ~ClCacheScrubber();
  ClCacheScrubber(ClCacheScrubber&& other) noexcept { *this = std::move(other); }
  ClCacheScrubber& operator=(ClCacheScrubber&& other) noexcept {
    std::swap(buffer_, other.buffer_);
    std::swap(program_, other.program_);
    std::swap(kernel_, other.kernel_);
    std::swap(work_items_, other.work_items_);
    std::swap(by_writing_, other.by_writing_);
    return *this;
  }
  bool active() const { return buffer_.size() > 0; }
  void scrub(cl_command_queue queue);

 private:
  ClBuffer<std::byte> buffer_;
  cl_program program_ = nullptr;  // the reading kernel's
  cl_kernel kernel_ = nullptr;
  std::size_t work_items_ = 0;
  bool by_writing_ = false;
};

// What the two base classes below share: the device the harness chose
// (--opencl-device, else the first GPU, else a CPU) and the track whose
// kernels the rung builds.
class OpenClDeviceRung : public Rung {
 public:
  static constexpr Backend kBackend = Backend::opencl;
  explicit OpenClDeviceRung(const RungContext& context)
      : device_(select_opencl_device(context.options)), track_(context.track) {}
  OpenClDeviceRung(const OpenClDeviceRung&) = delete;
  OpenClDeviceRung& operator=(const OpenClDeviceRung&) = delete;

  std::string device_name() const override { return device_.name; }
  DeviceKind device_kind() const override { return device_.is_gpu ? DeviceKind::gpu : DeviceKind::cpu; }

 protected:
  const OpenClDevice& chosen_device() const { return device_; }
  const std::string& track() const { return track_; }

 private:
  OpenClDevice device_;
  std::string track_;
};

class OpenClRung : public OpenClDeviceRung {
 public:
  explicit OpenClRung(const RungContext& context);
  ~OpenClRung() override;

  void synchronize() override;
  double timed_compute() override;
  void evict_caches() override;

 protected:
  cl_context context() const { return context_; }
  cl_command_queue queue() const { return queue_; }
  cl_device_id device() const { return chosen_device().device; }

  // Builds kernels/<file> (see kernel_source) and returns the named kernel;
  // the build log is in the error when it fails. A participant's kernel
  // that still holds its LADDER_TODO line is reported as not implemented.
  cl_kernel build_kernel(const std::string& file, const std::string& kernel_name, const std::string& options = "");

  template <class... Args>
  void set_arguments(cl_kernel kernel, const Args&... args) {
    cl_uint index = 0;
    (LADDER_CL_CHECK(clSetKernelArg(kernel, index++, sizeof(Args), &args)), ...);
  }
  // Launch over `global` work-items in groups of `local` (0: the runtime
  // chooses); the event joins the profiling of timed_compute().
  void enqueue(cl_kernel kernel, std::size_t global, std::size_t local) {
    enqueue(kernel, std::array{global}, std::array{local});
  }
  // The same over a 2-D or 3-D grid, x first: work-item (x, y, z) of group
  // (i, j, k) is get_local_id(0..2) of get_group_id(0..2), so that a kernel
  // working on tiles of an image (or of a stack of frames) reads its tile
  // from its group's ids instead of decoding one number. Each global size is
  // rounded up to a multiple of its local size (OpenCL 1.2 needs it); the
  // kernels guard the extra work-items with their own bounds checks.
  template <std::size_t N>
  void enqueue(cl_kernel kernel, std::array<std::size_t, N> global, std::array<std::size_t, N> local) {
    static_assert(N >= 1 && N <= 3, "OpenCL launches have 1, 2 or 3 dimensions");
    enqueue_range(kernel, N, global.data(), local.data());
  }

  // A device buffer of `count` values. One larger than the device allows in
  // one allocation (PoCL, for one, caps it below 4 GiB) is refused with a
  // DeviceError that says so, where clCreateBuffer would fail with a code.
  // After the values lies a guard zone of a known pattern, which the
  // harness checks after each download (check_device_guard_zones): a
  // kernel that writes past the end fails the check, where on PoCL it
  // would corrupt the heap.
  // (Not on Oclgrind, which checks every access against the buffer's own
  // size: a guard zone would hide a write just past the end from it.)
  template <class T>
  ClBuffer<T> device_buffer(cl_mem_flags flags, std::size_t count) {
    check_allocation(count, sizeof(T));
    if (on_simulator()) return ClBuffer<T>(context_, flags, count);
    ClBuffer<T> buffer(context_, flags, count, kGuardBytes);
    guard(buffer.get(), (count ? count : 1) * sizeof(T));
    return buffer;
  }

 public:
  void check_device_guard_zones() override;

 protected:
  template <class T>
  void write(ClBuffer<T>& buffer, std::span<const T> host) {
    LADDER_CL_CHECK(
        clEnqueueWriteBuffer(queue_, buffer.get(), CL_FALSE, 0, host.size_bytes(), host.data(), 0, nullptr, nullptr));
  }
  template <class T>
  void read(std::span<T> host, const ClBuffer<T>& buffer) {
    LADDER_CL_CHECK(
        clEnqueueReadBuffer(queue_, buffer.get(), CL_FALSE, 0, host.size_bytes(), host.data(), 0, nullptr, nullptr));
  }

 private:
  void check_allocation(std::size_t count, std::size_t value_bytes) const;
  // local: N sizes, or all 0 for the runtime's choice.
  void enqueue_range(cl_kernel kernel, std::size_t dimensions, std::size_t* global, const std::size_t* local);
  bool on_simulator() const { return device_name().find("Oclgrind") != std::string::npos; }
  // Fills the guard zone after the first `bytes` of `memory` and keeps it to check.
  void guard(cl_mem memory, std::size_t bytes);
  static constexpr std::size_t kGuardBytes = 256;
  struct GuardedBuffer {
    cl_mem memory;  // retained
    std::size_t bytes;
  };
  std::vector<GuardedBuffer> guarded_;

  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  std::vector<cl_program> programs_;
  std::vector<cl_kernel> kernels_;
  std::vector<cl_event> compute_events_;
  ClCacheScrubber cache_scrubber_;
};

// The base of a rung that writes the whole host program with the OpenCL
// API: platform and device, context, queue, program, buffers, launch and
// read-back, all its own. The harness still chooses the device (the
// indices `ladder devices` prints, --opencl-device P:D) and times compute:
// the rung hands back its queue and passes compute_event() to its launch.
class OpenClHostProgramRung : public OpenClDeviceRung {
 public:
  explicit OpenClHostProgramRung(const RungContext& context);
  ~OpenClHostProgramRung() override;

  void synchronize() override;
  double timed_compute() override;
  void evict_caches() override;

 protected:
  // Where the device is: clGetPlatformIDs()[platform_index()], then its
  // clGetDeviceIDs(CL_DEVICE_TYPE_ALL)[device_index()].
  int platform_index() const { return chosen_device().platform_index; }
  int device_index() const { return chosen_device().device_index; }
  // The queue compute() enqueues on (null before prepare). The harness
  // reads the launch's start and end from it: create it with
  // CL_QUEUE_PROFILING_ENABLE.
  virtual cl_command_queue compute_queue() const = 0;
  // The event argument of compute()'s clEnqueueNDRangeKernel.
  cl_event* compute_event();

 private:
  void release_compute_event();

  cl_event compute_event_ = nullptr;
  // The cache is evicted through a context and queue of the harness's own.
  cl_context scrub_context_ = nullptr;
  cl_command_queue scrub_queue_ = nullptr;
  ClCacheScrubber cache_scrubber_;
};

}  // namespace ladder
