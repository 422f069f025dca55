#pragma once
// OpenCL support for rungs: one checked-call macro with error names, an
// owning buffer, and OpenClRung, the base class that builds programs from
// kernels/ and times compute with profiling events (start of the first
// command to end of the last).
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "ladder/registry.hpp"
#include "ladder/rung.hpp"

#define LADDER_CL_CHECK(expr) ::ladder::opencl_check((expr), #expr, __FILE__, __LINE__)

namespace ladder {

const char* opencl_error_name(cl_int status);
void opencl_check(cl_int status, const char* call, const char* file, int line);

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
  ClBuffer(cl_context context, cl_mem_flags flags, std::size_t count) : count_(count) {
    cl_int status = CL_SUCCESS;
    memory_ = clCreateBuffer(context, flags, (count ? count : 1) * sizeof(T), nullptr, &status);
    LADDER_CL_CHECK(status);
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

class OpenClRung : public Rung {
 public:
  explicit OpenClRung(const RungContext& context);
  ~OpenClRung() override;
  OpenClRung(const OpenClRung&) = delete;
  OpenClRung& operator=(const OpenClRung&) = delete;

  void synchronize() override;
  double timed_compute() override;
  void evict_caches() override;
  std::string device_name() const override { return device_.name; }
  DeviceKind device_kind() const override { return device_.is_gpu ? DeviceKind::gpu : DeviceKind::cpu; }

 protected:
  cl_context context() const { return context_; }
  cl_command_queue queue() const { return queue_; }
  cl_device_id device() const { return device_.device; }

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
  void enqueue(cl_kernel kernel, std::size_t global, std::size_t local);

  template <class T>
  void write(ClBuffer<T>& buffer, std::span<const T> host) {
    LADDER_CL_CHECK(clEnqueueWriteBuffer(queue_, buffer.get(), CL_FALSE, 0, host.size_bytes(), host.data(), 0,
                                         nullptr, nullptr));
  }
  template <class T>
  void read(std::span<T> host, const ClBuffer<T>& buffer) {
    LADDER_CL_CHECK(clEnqueueReadBuffer(queue_, buffer.get(), CL_FALSE, 0, host.size_bytes(), host.data(), 0,
                                        nullptr, nullptr));
  }

 private:
  OpenClDevice device_;
  std::string track_;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  std::vector<cl_program> programs_;
  std::vector<cl_kernel> kernels_;
  std::vector<cl_event> compute_events_;
  ClBuffer<std::byte> cache_scrubber_;  // GPU devices only
};

}  // namespace ladder
