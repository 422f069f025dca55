#pragma once
// CUDA support for rungs: one checked-call macro, an owning device buffer,
// and CudaRung, the base class that times compute with CUDA events on the
// rung's own stream. Include from .cu files only.
#include <cuda_runtime.h>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "ladder/registry.hpp"
#include "ladder/rung.hpp"

// Every CUDA call goes through this: a failure throws DeviceError naming
// the call, the error and where it happened.
#define LADDER_CUDA_CHECK(expr) ::ladder::cuda_check((expr), #expr, __FILE__, __LINE__)

namespace ladder {

void cuda_check(cudaError_t status, const char* call, const char* file, int line);
// Checks the launch itself and, in debug builds (no NDEBUG), waits for the
// kernel, so that a fault inside it is reported at its launch.
#ifdef NDEBUG
#define LADDER_CUDA_CHECK_LAUNCH() LADDER_CUDA_CHECK(cudaGetLastError())
#else
#define LADDER_CUDA_CHECK_LAUNCH() (LADDER_CUDA_CHECK(cudaGetLastError()), LADDER_CUDA_CHECK(cudaDeviceSynchronize()))
#endif

// The device the options (or LADDER_CUDA_DEVICE) select; UsageError if absent.
int select_cuda_device(const RunOptions& options);

// An owning array on the device (cudaMalloc / cudaFree).
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    LADDER_CUDA_CHECK(cudaMalloc(&data_, (count ? count : 1) * sizeof(T)));
  }
  ~DeviceBuffer() {
    if (data_) cudaFree(data_);  // no check: destructors must not throw
  }
  DeviceBuffer(DeviceBuffer&& other) noexcept : data_(other.data_), count_(other.count_) {
    other.data_ = nullptr;
    other.count_ = 0;
  }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }
  T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

class CudaRung : public Rung {
 public:
  explicit CudaRung(const RungContext& context);
  ~CudaRung() override;
  CudaRung(const CudaRung&) = delete;
  CudaRung& operator=(const CudaRung&) = delete;

  void attach_host_memory(const Arrays& inputs, Arrays& outputs) override;
  void synchronize() override;
  double timed_compute() override;
  void evict_caches() override;
  std::string device_name() const override { return properties_.name; }
  DeviceKind device_kind() const override { return DeviceKind::gpu; }
  bool uses_pinned_memory() const override { return pinned_; }

 protected:
  cudaStream_t stream() const { return stream_; }
  const cudaDeviceProp& properties() const { return properties_; }

  // Asynchronous copies on the rung's stream.
  template <class T>
  void copy_to_device(DeviceBuffer<T>& device, std::span<const T> host) {
    LADDER_CUDA_CHECK(cudaMemcpyAsync(device.data(), host.data(), host.size_bytes(), cudaMemcpyHostToDevice, stream_));
  }
  template <class T>
  void copy_to_host(std::span<T> host, const DeviceBuffer<T>& device) {
    LADDER_CUDA_CHECK(cudaMemcpyAsync(host.data(), device.data(), host.size_bytes(), cudaMemcpyDeviceToHost, stream_));
  }

  // Blocks of `threads` that fit on the whole device at once: the grid of a
  // grid-stride loop, capped by the blocks the work needs.
  template <class Kernel>
  unsigned resident_blocks(Kernel kernel, int threads, std::size_t work_items) const {
    int per_sm = 0;
    LADDER_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
    std::size_t resident = static_cast<std::size_t>(per_sm) * properties_.multiProcessorCount;
    std::size_t needed = ceil_div(work_items, threads);
    std::size_t blocks = needed < resident ? needed : resident;
    return static_cast<unsigned>(blocks ? blocks : 1);
  }

 private:
  int device_ = 0;
  cudaDeviceProp properties_{};
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
  DeviceBuffer<std::byte> l2_scrubber_;  // written before each timed repetition
  bool pinned_ = false;
  std::vector<void*> registered_;  // host ranges pinned with cudaHostRegister
};

}  // namespace ladder
