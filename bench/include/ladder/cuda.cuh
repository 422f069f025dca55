#pragma once
// CUDA support for rungs: one checked-call macro, owning device buffers,
// pinned host buffers, streams and events, and CudaRung, the base class
// that times compute with CUDA events on the rung's own stream. Include
// from .cu files only.
#include <cuda_runtime.h>

#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
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

// Owning CUDA resources, move-only. Each is released without a check when
// it is destroyed: destructors must not throw, and one that runs while an
// exception unwinds must not replace it.

enum class Memory { device, pinned_host };

// An owning array of `count` T: on the device (cudaMalloc / cudaFree), or
// in page-locked host memory (cudaMallocHost / cudaFreeHost), which copies
// can run from asynchronously. Default-constructed: empty. One from
// CudaRung::device_buffer is a view of memory that the rung owns.
template <class T, Memory kind>
class CudaBuffer {
 public:
  CudaBuffer() = default;
  explicit CudaBuffer(std::size_t count) : count_(count) { LADDER_CUDA_CHECK(allocate(&data_, count)); }
  // An empty buffer instead of an error where the memory is not there
  // (cudaErrorMemoryAllocation, cleared: the caller handles it); any other
  // error throws.
  static CudaBuffer try_allocate(std::size_t count) {
    CudaBuffer buffer;
    const cudaError_t status = allocate(&buffer.data_, count);
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      buffer.data_ = nullptr;
      return buffer;
    }
    LADDER_CUDA_CHECK(status);
    buffer.count_ = count;
    return buffer;
  }
  // `count` values at `data`, which something else owns and frees.
  static CudaBuffer borrowed(T* data, std::size_t count) {
    CudaBuffer buffer;
    buffer.data_ = data;
    buffer.count_ = count;
    buffer.owner_ = false;
    return buffer;
  }
  ~CudaBuffer() {
    if (!data_ || !owner_) return;
    if constexpr (kind == Memory::device)
      cudaFree(data_);
    else
      cudaFreeHost(data_);
  }
  CudaBuffer(CudaBuffer&& other) noexcept : data_(other.data_), count_(other.count_), owner_(other.owner_) {
    other.data_ = nullptr;
    other.count_ = 0;
  }
  CudaBuffer& operator=(CudaBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    std::swap(owner_, other.owner_);
    return *this;
  }
  T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  static cudaError_t allocate(T** data, std::size_t count) {
    const std::size_t bytes = (count ? count : 1) * sizeof(T);
    if constexpr (kind == Memory::device)
      return cudaMalloc(data, bytes);
    else
      return cudaMallocHost(data, bytes);
  }

  T* data_ = nullptr;
  std::size_t count_ = 0;
  bool owner_ = true;  // frees data_ when destroyed
};
template <class T>
using DeviceBuffer = CudaBuffer<T, Memory::device>;
template <class T>
using PinnedHostBuffer = CudaBuffer<T, Memory::pinned_host>;

// Queues a read of every line of `scrubber` (twice the L2's size, zeroed),
// which leaves the L2 full of clean lines: what the harness does before each
// timed repetition of a CUDA rung (CudaRung::evict_caches), and the device
// ceiling's probe before each of its timings, so that neither is charged
// for the write-back of the lines a run before it left dirty.
void evict_l2_by_reading(const DeviceBuffer<std::byte>& scrubber, const cudaDeviceProp& properties,
                         cudaStream_t stream);

// A stream that does not wait for the legacy default stream
// (cudaStreamNonBlocking), created on the current device. Destroying it
// first waits for the work queued on it, so that the buffers that work uses
// may be freed after it: declare a stream after its buffers.
class CudaStream {
 public:
  CudaStream() {
    cudaStream_t stream = nullptr;
    LADDER_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    stream_.reset(stream);
  }
  cudaStream_t get() const { return stream_.get(); }

 private:
  struct WaitAndDestroy {
    void operator()(cudaStream_t stream) const {
      cudaStreamSynchronize(stream);
      cudaStreamDestroy(stream);
    }
  };
  std::unique_ptr<std::remove_pointer_t<cudaStream_t>, WaitAndDestroy> stream_;  // a handle is a pointer
};

// An event, created on the current device. `untimed` events
// (cudaEventDisableTiming) only order streams and are cheaper to record
// and wait for; `timed` ones also give cudaEventElapsedTime.
class CudaEvent {
 public:
  enum Timing { timed, untimed };
  explicit CudaEvent(Timing timing) {
    cudaEvent_t event = nullptr;
    LADDER_CUDA_CHECK(cudaEventCreateWithFlags(&event, timing == timed ? cudaEventDefault : cudaEventDisableTiming));
    event_.reset(event);
  }
  cudaEvent_t get() const { return event_.get(); }

 private:
  struct Destroy {
    void operator()(cudaEvent_t event) const { cudaEventDestroy(event); }
  };
  std::unique_ptr<std::remove_pointer_t<cudaEvent_t>, Destroy> event_;
};

// Worker streams for a rung that overlaps copies and kernels: fork() makes
// them start after whatever the parent stream holds (the harness's start
// event), work is dealt to them round-robin (lanes[i] is lane i mod N), and
// join() makes the parent wait for all of them, so that the harness's
// events on the parent stream time the whole pipeline. Declare the lanes
// after the buffers their work uses: destroying a stream waits for it.
template <std::size_t N>
class StreamLanes {
 public:
  void fork(cudaStream_t parent) {
    LADDER_CUDA_CHECK(cudaEventRecord(begin_.get(), parent));
    for (const Lane& lane : lanes_) LADDER_CUDA_CHECK(cudaStreamWaitEvent(lane.stream.get(), begin_.get(), 0));
  }
  cudaStream_t operator[](std::size_t i) const { return lanes_[i % N].stream.get(); }
  void join(cudaStream_t parent) {
    for (const Lane& lane : lanes_) {
      LADDER_CUDA_CHECK(cudaEventRecord(lane.done.get(), lane.stream.get()));
      LADDER_CUDA_CHECK(cudaStreamWaitEvent(parent, lane.done.get(), 0));
    }
  }

 private:
  struct Lane {
    CudaStream stream;
    CudaEvent done{CudaEvent::untimed};
  };
  std::array<Lane, N> lanes_;
  CudaEvent begin_{CudaEvent::untimed};
};

class CudaRung : public Rung {
 public:
  static constexpr Backend kBackend = Backend::cuda;
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
  void check_device_guard_zones() override;

 protected:
  cudaStream_t stream() const { return stream_.get(); }

  // Page-locks `host` in place (cudaHostRegister) until the rung is
  // destroyed, so that copies from and to it run asynchronously, at full
  // PCIe speed. The memory must outlive the rung; CUDA refuses to pin a
  // range twice (under --pinned the harness's arrays already are).
  void pin(std::span<const std::byte> host);
  const cudaDeviceProp& properties() const { return properties_; }

  // A device buffer of `count` values, as OpenClRung::device_buffer makes
  // them: after the values lies a guard zone of a known pattern, which the
  // harness checks after each download (check_device_guard_zones). A
  // kernel that writes a little past the end then fails the check, naming
  // the buffer and how far; without the zone the write lands in cudaMalloc's
  // rounding or in a neighbouring buffer, and nothing says so. (Under
  // compute-sanitizer's memcheck such a write is this check's failure, not
  // memcheck's report: the zone is part of the allocation.) The rung owns
  // the memory until it is destroyed; the buffer returned is a view of it,
  // so a buffer allocated again keeps its old memory until then.
  template <class T>
  DeviceBuffer<T> device_buffer(std::size_t count) {
    void* memory = allocate_guarded((count ? count : 1) * sizeof(T));
    return DeviceBuffer<T>::borrowed(static_cast<T*>(memory), count);
  }

  // Asynchronous copies on the rung's stream.
  template <class T>
  void copy_to_device(DeviceBuffer<T>& device, std::span<const T> host) {
    LADDER_CUDA_CHECK(cudaMemcpyAsync(device.data(), host.data(), host.size_bytes(), cudaMemcpyHostToDevice, stream()));
  }
  template <class T>
  void copy_to_host(std::span<T> host, const DeviceBuffer<T>& device) {
    LADDER_CUDA_CHECK(cudaMemcpyAsync(host.data(), device.data(), host.size_bytes(), cudaMemcpyDeviceToHost, stream()));
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
  int device_ = 0;  // made current before the stream and events below are created on it
  cudaDeviceProp properties_{};
  CudaStream stream_;
  CudaEvent start_{CudaEvent::timed};
  CudaEvent stop_{CudaEvent::timed};
  DeviceBuffer<std::byte> l2_scrubber_;  // read (or written) before each timed repetition
  bool evict_by_writing_ = false;
  bool pinned_ = false;
  std::vector<void*> registered_;  // host ranges pinned with cudaHostRegister

  // `bytes` of device memory and a guard zone after them, filled with
  // Array::kGuardPattern; kept in guarded_ until the rung is destroyed.
  void* allocate_guarded(std::size_t bytes);
  static constexpr std::size_t kGuardBytes = 256;
  std::vector<DeviceBuffer<std::byte>> guarded_;  // each: the values' bytes, then kGuardBytes
};

}  // namespace ladder
