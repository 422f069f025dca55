#include <cstddef>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "ladder/backends.hpp"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"

namespace ladder {

void cuda_check(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear a sticky launch error so the next call reports its own
  throw DeviceError(std::string("CUDA call ") + call + " failed: " + cudaGetErrorName(status) + " (" +
                    cudaGetErrorString(status) + ") at " + file + ":" + std::to_string(line));
}

namespace {

int device_count(std::string& why_none) {
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    // No driver, or a driver that sees no GPU: the usual case on a machine
    // without an NVIDIA GPU, said as a person would (CUDA's words in brackets).
    const bool no_gpu = status == cudaErrorInsufficientDriver || status == cudaErrorNoDevice;
    why_none = no_gpu ? std::string("no NVIDIA GPU or driver on this machine (CUDA: ") + cudaGetErrorName(status) + ")"
                      : std::string("no CUDA device (") + cudaGetErrorName(status) + ": " + cudaGetErrorString(status) + ")";
    cudaGetLastError();
    return 0;
  }
  if (count == 0) why_none = "no NVIDIA GPU or driver on this machine";
  return count;
}

int requested_device(const RunOptions& options) {
  if (options.cuda_device >= 0) return options.cuda_device;
  if (const char* env = std::getenv("LADDER_CUDA_DEVICE")) {
    char* end = nullptr;
    long value = std::strtol(env, &end, 10);
    if (end == env || *end != '\0' || value < 0)
      throw UsageError(std::string("LADDER_CUDA_DEVICE=") + env + " is not a device index (see `ladder devices`)");
    return static_cast<int>(value);
  }
  return -1;
}

}  // namespace

int select_cuda_device(const RunOptions& options) {
  std::string why_none;
  int count = device_count(why_none);
  int wanted = requested_device(options);
  if (wanted >= 0 && wanted >= count)
    throw UsageError("CUDA device " + std::to_string(wanted) + " is not there (" +
                     (count ? std::to_string(count) + " CUDA device(s): 0.." + std::to_string(count - 1)
                            : why_none) +
                     "; see `ladder devices`)");
  if (count == 0) throw DeviceError(why_none);
  return wanted < 0 ? 0 : wanted;
}

Availability cuda_availability(const RunOptions& options) {
  std::string why_none;
  int count = device_count(why_none);
  int wanted = requested_device(options);
  if (wanted >= 0 && wanted >= count) select_cuda_device(options);  // throws the UsageError
  if (count == 0) return {false, why_none};
  return {true, ""};
}

nlohmann::json cuda_devices() {
  nlohmann::json devices = nlohmann::json::array();
  std::string why_none;
  int count = device_count(why_none);
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp p{};
    LADDER_CUDA_CHECK(cudaGetDeviceProperties(&p, i));
    int clock_khz = 0, memory_clock_khz = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, i);
    cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, i);
    devices.push_back({{"index", i},
                       {"name", p.name},
                       {"compute_capability", std::to_string(p.major) + "." + std::to_string(p.minor)},
                       {"multiprocessors", p.multiProcessorCount},
                       {"global_memory_bytes", p.totalGlobalMem},
                       {"l2_cache_bytes", p.l2CacheSize},
                       {"clock_khz", clock_khz},
                       {"memory_clock_khz", memory_clock_khz},
                       {"memory_bus_width_bits", p.memoryBusWidth},
                       {"driver_version", driver},
                       {"runtime_version", runtime}});
  }
  return devices;
}

namespace {

// The device the options select, made current: CudaRung calls it first of
// all, so that its stream and events are created there.
int use_cuda_device(const RunOptions& options) {
  const int device = select_cuda_device(options);
  LADDER_CUDA_CHECK(cudaSetDevice(device));
  return device;
}

}  // namespace

CudaRung::CudaRung(const RungContext& context)
    : device_(use_cuda_device(context.options)), pinned_(context.options.pinned) {
  LADDER_CUDA_CHECK(cudaGetDeviceProperties(&properties_, device_));
  if (context.options.warm) return;
  l2_scrubber_ = DeviceBuffer<std::byte>(2 * static_cast<std::size_t>(properties_.l2CacheSize));
  evict_by_writing_ = context.options.evict_by_writing;
  // Written once, so that reading it is defined; then read once and waited
  // for, so that none of the memset's dirty lines is left for a timed kernel.
  LADDER_CUDA_CHECK(cudaMemsetAsync(l2_scrubber_.data(), 0, l2_scrubber_.bytes(), stream()));
  CudaRung::evict_caches();
  synchronize();
}

CudaRung::~CudaRung() {
  // No checks: destructors must not throw. Nothing may still be copying
  // from or to a range when it is unpinned. (The derived rung's own streams
  // have already waited, in its members' destructors.)
  cudaStreamSynchronize(stream());
  for (void* p : registered_) cudaHostUnregister(p);
}

void CudaRung::attach_host_memory(const Arrays& inputs, Arrays& outputs) {
  if (!pinned_) return;
  // Pin the harness's own buffers in place: the copies then run at full
  // PCIe speed instead of through the driver's pageable staging buffer.
  for (const auto& [name, array] : inputs) pin({array.raw(), array.bytes()});
  for (const auto& [name, array] : outputs) pin({array.raw(), array.bytes()});
}

void CudaRung::pin(std::span<const std::byte> host) {
  void* p = const_cast<std::byte*>(host.data());
  LADDER_CUDA_CHECK(cudaHostRegister(p, host.size() ? host.size() : 1, cudaHostRegisterDefault));
  registered_.push_back(p);
}

void CudaRung::synchronize() { LADDER_CUDA_CHECK(cudaStreamSynchronize(stream())); }

void* CudaRung::allocate_guarded(std::size_t bytes) {
  DeviceBuffer<std::byte> memory(bytes + kGuardBytes);
  // Waited for: a kernel on a stream of the rung's own would not wait for it.
  LADDER_CUDA_CHECK(cudaMemsetAsync(memory.data() + bytes, std::to_integer<int>(Array::kGuardPattern), kGuardBytes,
                                    stream()));
  synchronize();
  guarded_.push_back(std::move(memory));
  return guarded_.back().data();
}

void CudaRung::check_device_guard_zones() {
  // Every stream of the device, not only the rung's own: a rung may write
  // from worker streams (StreamLanes), and cudaMemcpy waits for none of them.
  LADDER_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<std::byte> zone(kGuardBytes);
  for (std::size_t i = 0; i < guarded_.size(); ++i) {
    const std::size_t bytes = guarded_[i].bytes() - kGuardBytes;
    LADDER_CUDA_CHECK(cudaMemcpy(zone.data(), guarded_[i].data() + bytes, kGuardBytes, cudaMemcpyDeviceToHost));
    std::size_t overrun = kGuardBytes;
    while (overrun > 0 && zone[overrun - 1] == Array::kGuardPattern) --overrun;
    if (overrun > 0)
      throw OutOfBounds("a kernel wrote past the end of device buffer " + std::to_string(i + 1) + " of " +
                        std::to_string(guarded_.size()) + " (in the order prepare() made them; " +
                        std::to_string(bytes) + " bytes): up to " + std::to_string(overrun) +
                        " bytes past its end: is a bounds test missing?");
  }
}

double CudaRung::timed_compute() {
  LADDER_CUDA_CHECK(cudaEventRecord(start_.get(), stream()));
  compute();
  LADDER_CUDA_CHECK(cudaEventRecord(stop_.get(), stream()));
  LADDER_CUDA_CHECK(cudaEventSynchronize(stop_.get()));
  float milliseconds = 0;
  LADDER_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start_.get(), stop_.get()));
  return milliseconds * 1e-3;
}

// Reads every 16 bytes of the buffer. The sum is stored only if it is a
// value that the zeroed buffer never sums to, but the compiler cannot know
// that, so no load is left out.
__global__ void read_every_line(const uint4* buffer, std::size_t count, unsigned* never_written) {
  unsigned sum = 0;
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += stride) {
    const uint4 v = buffer[i];
    sum += v.x ^ v.y ^ v.z ^ v.w;
  }
  if (sum == 0xFFFFFFFFu) *never_written = sum;
}

// Evicting by reading a buffer twice the L2's size leaves the L2 full of
// clean lines: the timed kernel's reads replace them for nothing, as after
// Nsight Compute's cache flush. A memset (--evict-by-writing, every run up
// to 2026-11-26, and nvbench's way) leaves them dirty, and each of the
// kernel's first reads then also writes a line of the memset back to
// memory: up to an L2's worth of writes charged to a kernel that wrote
// nothing (measured on the H100:
// b4b7612:reports/experiments/2026-11-26-h100-l2-eviction-by-reading).
//
// Queued, not waited for: timed_compute() then records its start event and
// queues compute()'s launches while the eviction still runs, so that the
// kernel follows the start event at once. Waiting here left the GPU idle
// from the start event until the host's launch reached it, a few
// microseconds of host latency in every compute time (nvbench holds the
// stream with a blocking kernel for the same reason). A host-clocked
// repetition calls synchronize() first.
void CudaRung::evict_caches() {
  if (l2_scrubber_.size() == 0) return;
  if (evict_by_writing_) {
    LADDER_CUDA_CHECK(cudaMemsetAsync(l2_scrubber_.data(), 0, l2_scrubber_.bytes(), stream()));
    return;
  }
  evict_l2_by_reading(l2_scrubber_, properties_, stream());
}

void evict_l2_by_reading(const DeviceBuffer<std::byte>& scrubber, const cudaDeviceProp& properties,
                         cudaStream_t stream) {
  constexpr int kThreads = 256;
  const unsigned blocks = unsigned(properties.multiProcessorCount) * 8;
  read_every_line<<<blocks, kThreads, 0, stream>>>(reinterpret_cast<const uint4*>(scrubber.data()),
                                                   scrubber.bytes() / sizeof(uint4),
                                                   reinterpret_cast<unsigned*>(scrubber.data()));
  LADDER_CUDA_CHECK(cudaGetLastError());
}

}  // namespace ladder
