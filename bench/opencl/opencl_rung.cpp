#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>

#include "ladder/backends.hpp"
#include "ladder/error.hpp"
#include "ladder/kernels.hpp"
#include "ladder/opencl.hpp"

namespace ladder {

const char* opencl_error_name(cl_int status) {
  switch (status) {
#define LADDER_CL_NAME(code) \
  case code:                 \
    return #code;
    LADDER_CL_NAME(CL_SUCCESS)
    LADDER_CL_NAME(CL_DEVICE_NOT_FOUND)
    LADDER_CL_NAME(CL_DEVICE_NOT_AVAILABLE)
    LADDER_CL_NAME(CL_COMPILER_NOT_AVAILABLE)
    LADDER_CL_NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    LADDER_CL_NAME(CL_OUT_OF_RESOURCES)
    LADDER_CL_NAME(CL_OUT_OF_HOST_MEMORY)
    LADDER_CL_NAME(CL_PROFILING_INFO_NOT_AVAILABLE)
    LADDER_CL_NAME(CL_MEM_COPY_OVERLAP)
    LADDER_CL_NAME(CL_BUILD_PROGRAM_FAILURE)
    LADDER_CL_NAME(CL_MAP_FAILURE)
    LADDER_CL_NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    LADDER_CL_NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    LADDER_CL_NAME(CL_COMPILE_PROGRAM_FAILURE)
    LADDER_CL_NAME(CL_LINK_PROGRAM_FAILURE)
    LADDER_CL_NAME(CL_INVALID_VALUE)
    LADDER_CL_NAME(CL_INVALID_DEVICE_TYPE)
    LADDER_CL_NAME(CL_INVALID_PLATFORM)
    LADDER_CL_NAME(CL_INVALID_DEVICE)
    LADDER_CL_NAME(CL_INVALID_CONTEXT)
    LADDER_CL_NAME(CL_INVALID_QUEUE_PROPERTIES)
    LADDER_CL_NAME(CL_INVALID_COMMAND_QUEUE)
    LADDER_CL_NAME(CL_INVALID_HOST_PTR)
    LADDER_CL_NAME(CL_INVALID_MEM_OBJECT)
    LADDER_CL_NAME(CL_INVALID_BUFFER_SIZE)
    LADDER_CL_NAME(CL_INVALID_BINARY)
    LADDER_CL_NAME(CL_INVALID_BUILD_OPTIONS)
    LADDER_CL_NAME(CL_INVALID_PROGRAM)
    LADDER_CL_NAME(CL_INVALID_PROGRAM_EXECUTABLE)
    LADDER_CL_NAME(CL_INVALID_KERNEL_NAME)
    LADDER_CL_NAME(CL_INVALID_KERNEL_DEFINITION)
    LADDER_CL_NAME(CL_INVALID_KERNEL)
    LADDER_CL_NAME(CL_INVALID_ARG_INDEX)
    LADDER_CL_NAME(CL_INVALID_ARG_VALUE)
    LADDER_CL_NAME(CL_INVALID_ARG_SIZE)
    LADDER_CL_NAME(CL_INVALID_KERNEL_ARGS)
    LADDER_CL_NAME(CL_INVALID_WORK_DIMENSION)
    LADDER_CL_NAME(CL_INVALID_WORK_GROUP_SIZE)
    LADDER_CL_NAME(CL_INVALID_WORK_ITEM_SIZE)
    LADDER_CL_NAME(CL_INVALID_GLOBAL_OFFSET)
    LADDER_CL_NAME(CL_INVALID_EVENT_WAIT_LIST)
    LADDER_CL_NAME(CL_INVALID_EVENT)
    LADDER_CL_NAME(CL_INVALID_OPERATION)
    LADDER_CL_NAME(CL_INVALID_GLOBAL_WORK_SIZE)
    LADDER_CL_NAME(CL_INVALID_PROPERTY)
#undef LADDER_CL_NAME
    case -1001:
      return "CL_PLATFORM_NOT_FOUND_KHR";  // the ICD loader found no platform
    default:
      return "unknown OpenCL error";
  }
}

std::string host_program_step(const std::string& call) {
  static const std::pair<const char*, const char*> kSteps[] = {
      {"clGetPlatformIDs", "step 1, platform, device and context"},
      {"clGetDeviceIDs", "step 1, platform, device and context"},
      {"clCreateContext", "step 1, platform, device and context"},
      {"clCreateCommandQueue", "step 2, the command queue"},
      {"clCreateProgramWithSource", "step 3, the program and its kernel"},
      {"clBuildProgram", "step 3, the program and its kernel"},
      {"clCreateKernel", "step 3, the program and its kernel"},
      {"clCreateBuffer", "step 4, the buffers"},
      {"clEnqueueWriteBuffer", "step 4, the buffers"},
      {"clSetKernelArg", "step 5, the launch and the read-back"},
      {"clEnqueueNDRangeKernel", "step 5, the launch and the read-back"},
      {"clEnqueueReadBuffer", "step 5, the launch and the read-back"},
  };
  const std::string name = call.substr(0, call.find('('));
  for (const auto& [function, step] : kSteps)
    if (name == function) return step;
  return "";
}

void opencl_check(cl_int status, const char* call, const char* file, int line) {
  if (status == CL_SUCCESS) return;
  const std::string step = host_program_step(call);
  throw DeviceError(std::string("OpenCL call ") + call + " failed: " + opencl_error_name(status) + " (" +
                    std::to_string(status) + ") at " + file + ":" + std::to_string(line) +
                    (step.empty() ? "" : " (" + step + ", of the host program)"));
}

std::string opencl_program_source(const std::string& file, const std::string& track) {
  std::string source = kernel_source(file, track);
  if (source.find("LADDER_TODO") != std::string::npos)
    throw NotImplemented(kernel_file(file, track) +
                         " still has its LADDER_TODO line: write the kernel, then delete that line");
  // So that the compiler's messages and Oclgrind's reports (ladder check
  // --race) name the file a person would open, not "input.cl".
  const std::string name = kernel_file(file, track);
  if (name.find_first_of("\"\\\n") == std::string::npos) source = "#line 1 \"" + name + "\"\n" + source;
  return source;
}

void check_build(cl_int status, cl_program program, cl_device_id device, const std::string& file) {
  if (status == CL_SUCCESS) return;
  std::size_t size = 0;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  std::string log(size, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  throw DeviceError("OpenCL build of kernels/" + file + " failed (" + opencl_error_name(status) + "):\n" + log);
}

namespace {

std::string device_info_string(cl_device_id device, cl_device_info what) {
  std::size_t size = 0;
  LADDER_CL_CHECK(clGetDeviceInfo(device, what, 0, nullptr, &size));
  std::string text(size, '\0');
  LADDER_CL_CHECK(clGetDeviceInfo(device, what, size, text.data(), nullptr));
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

std::string platform_name(cl_platform_id platform) {
  std::size_t size = 0;
  LADDER_CL_CHECK(clGetPlatformInfo(platform, CL_PLATFORM_NAME, 0, nullptr, &size));
  std::string text(size, '\0');
  LADDER_CL_CHECK(clGetPlatformInfo(platform, CL_PLATFORM_NAME, size, text.data(), nullptr));
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

std::vector<cl_platform_id> platforms() {
  cl_uint count = 0;
  cl_int status = clGetPlatformIDs(0, nullptr, &count);
  if (status == -1001 || count == 0) return {};  // no ICD installed: not an error, just none
  LADDER_CL_CHECK_STATUS(clGetPlatformIDs, status);
  std::vector<cl_platform_id> list(count);
  LADDER_CL_CHECK(clGetPlatformIDs(count, list.data(), nullptr));
  return list;
}

std::vector<cl_device_id> devices_of(cl_platform_id platform) {
  cl_uint count = 0;
  cl_int status = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
  if (status == CL_DEVICE_NOT_FOUND || count == 0) return {};
  LADDER_CL_CHECK_STATUS(clGetDeviceIDs, status);
  std::vector<cl_device_id> list(count);
  LADDER_CL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, list.data(), nullptr));
  return list;
}

bool is_gpu(cl_device_id device) {
  cl_device_type type = 0;
  LADDER_CL_CHECK(clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof(type), &type, nullptr));
  return (type & CL_DEVICE_TYPE_GPU) != 0;
}

OpenClDevice describe(const std::vector<cl_platform_id>& all, int p, int d) {
  OpenClDevice chosen;
  chosen.platform = all[p];
  chosen.device = devices_of(all[p])[d];
  chosen.platform_index = p;
  chosen.device_index = d;
  chosen.name = device_info_string(chosen.device, CL_DEVICE_NAME) + " (" + platform_name(all[p]) + ")";
  chosen.is_gpu = is_gpu(chosen.device);
  return chosen;
}

// Reads a profiled launch's start and end; the queue it ran on must have
// been created with CL_QUEUE_PROFILING_ENABLE.
cl_ulong profiling_time(cl_event event, cl_profiling_info what) {
  cl_ulong time = 0;
  const cl_int status = clGetEventProfilingInfo(event, what, sizeof(time), &time, nullptr);
  if (status == CL_PROFILING_INFO_NOT_AVAILABLE)
    throw DeviceError(
        "the compute launch has no profiling times (CL_PROFILING_INFO_NOT_AVAILABLE): create the "
        "command queue with CL_QUEUE_PROFILING_ENABLE (step 2, the command queue, of the host program)");
  LADDER_CL_CHECK_STATUS(clGetEventProfilingInfo, status);
  return time;
}

}  // namespace

OpenClDevice select_opencl_device(const RunOptions& options) {
  std::string wanted = options.opencl_device;
  std::string source = "--opencl-device";
  if (wanted.empty()) {
    if (const char* env = std::getenv("LADDER_OPENCL_DEVICE")) wanted = env, source = "LADDER_OPENCL_DEVICE";
  }
  auto all = platforms();
  if (!wanted.empty()) {
    int p = -1, d = -1;
    char extra = 0;
    if (std::sscanf(wanted.c_str(), "%d:%d%c", &p, &d, &extra) != 2 || p < 0 || d < 0)
      throw UsageError(source + " " + wanted + ": expected PLATFORM:DEVICE, e.g. 0:0 (see `ladder devices`)");
    if (p >= static_cast<int>(all.size()) || d >= static_cast<int>(devices_of(all[p]).size()))
      throw UsageError(source + " " + wanted + ": no such OpenCL device (" + std::to_string(all.size()) +
                       " platform(s); see `ladder devices`)");
    return describe(all, p, d);
  }
  for (int p = 0; p < static_cast<int>(all.size()); ++p) {
    auto devices = devices_of(all[p]);
    for (int d = 0; d < static_cast<int>(devices.size()); ++d)
      if (is_gpu(devices[d])) return describe(all, p, d);
  }
  for (int p = 0; p < static_cast<int>(all.size()); ++p) {
    if (!devices_of(all[p]).empty()) {
      OpenClDevice chosen = describe(all, p, 0);
      chosen.note = "no OpenCL GPU: fell back to the CPU device " + chosen.name;
      return chosen;
    }
  }
  throw DeviceError("no OpenCL platform with a device (install an ICD, e.g. Debian's pocl-opencl-icd)");
}

Availability opencl_availability(const RunOptions& options) {
  try {
    select_opencl_device(options);
    return {true, ""};
  } catch (const DeviceError& error) {
    return {false, error.what()};
  }
}

nlohmann::json opencl_devices() {
  nlohmann::json list = nlohmann::json::array();
  auto all = platforms();
  for (int p = 0; p < static_cast<int>(all.size()); ++p) {
    auto devices = devices_of(all[p]);
    for (int d = 0; d < static_cast<int>(devices.size()); ++d) {
      cl_ulong memory = 0;
      cl_uint units = 0;
      LADDER_CL_CHECK(clGetDeviceInfo(devices[d], CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(memory), &memory, nullptr));
      LADDER_CL_CHECK(clGetDeviceInfo(devices[d], CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(units), &units, nullptr));
      list.push_back({{"id", std::to_string(p) + ":" + std::to_string(d)},
                      {"platform", platform_name(all[p])},
                      {"name", device_info_string(devices[d], CL_DEVICE_NAME)},
                      {"type", is_gpu(devices[d]) ? "GPU" : "CPU"},
                      {"version", device_info_string(devices[d], CL_DEVICE_VERSION)},
                      {"driver", device_info_string(devices[d], CL_DRIVER_VERSION)},
                      {"compute_units", units},
                      {"global_memory_bytes", memory}});
    }
  }
  return list;
}

// Reads every 16 bytes of the buffer; the sum is stored only if the zeroed
// buffer could sum to it, which the compiler cannot know, so no load is
// left out.
constexpr const char* kReadEveryLine = R"(
__kernel void read_every_line(__global const uint4* buffer, ulong count, __global uint* never_written) {
  uint sum = 0;
  for (size_t i = get_global_id(0); i < count; i += get_global_size(0)) {
    const uint4 v = buffer[i];
    sum += v.x ^ v.y ^ v.z ^ v.w;
  }
  if (sum == 0xFFFFFFFFu) *never_written = sum;
}
)";

ClCacheScrubber::ClCacheScrubber(cl_context context, const OpenClDevice& device, const RunOptions& options) {
  if (!device.is_gpu || options.warm) return;
  cl_ulong cache = 0;
  LADDER_CL_CHECK(clGetDeviceInfo(device.device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof(cache), &cache, nullptr));
  buffer_ = ClBuffer<std::byte>(context, CL_MEM_READ_WRITE, 2 * std::max<cl_ulong>(cache, 1 << 20));
  by_writing_ = options.evict_by_writing;
  if (by_writing_) return;
  cl_int status = CL_SUCCESS;
  const char* source = kReadEveryLine;
  program_ = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
  LADDER_CL_CHECK_STATUS(clCreateProgramWithSource, status);
  check_build(clBuildProgram(program_, 1, &device.device, "-cl-std=CL1.2", nullptr, nullptr), program_, device.device,
              "the harness's cache eviction");
  kernel_ = clCreateKernel(program_, "read_every_line", &status);
  LADDER_CL_CHECK_STATUS(clCreateKernel, status);
  const cl_mem memory = buffer_.get();
  const cl_ulong count = buffer_.size() / 16;
  LADDER_CL_CHECK(clSetKernelArg(kernel_, 0, sizeof(memory), &memory));
  LADDER_CL_CHECK(clSetKernelArg(kernel_, 1, sizeof(count), &count));
  LADDER_CL_CHECK(clSetKernelArg(kernel_, 2, sizeof(memory), &memory));
  cl_uint units = 1;
  LADDER_CL_CHECK(clGetDeviceInfo(device.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(units), &units, nullptr));
  work_items_ = std::size_t{units} * 8 * 256;
}

ClCacheScrubber::~ClCacheScrubber() {
  if (kernel_) clReleaseKernel(kernel_);
  if (program_) clReleaseProgram(program_);
}

void ClCacheScrubber::scrub(cl_command_queue queue) {
  if (!active()) return;
  if (by_writing_) {
    const cl_uchar zero = 0;
    LADDER_CL_CHECK(clEnqueueFillBuffer(queue, buffer_.get(), &zero, 1, 0, buffer_.size(), 0, nullptr, nullptr));
  } else {
    // The buffer's contents do not matter (uninitialised memory is read as
    // whatever it holds), only that every line of it passes through the cache.
    LADDER_CL_CHECK(clEnqueueNDRangeKernel(queue, kernel_, 1, nullptr, &work_items_, nullptr, 0, nullptr, nullptr));
  }
  LADDER_CL_CHECK(clFinish(queue));
}

OpenClRung::OpenClRung(const RungContext& context) : OpenClDeviceRung(context) {
  cl_int status = CL_SUCCESS;
  cl_device_id id = device();
  context_ = clCreateContext(nullptr, 1, &id, nullptr, nullptr, &status);
  LADDER_CL_CHECK_STATUS(clCreateContext, status);
  queue_ = clCreateCommandQueue(context_, id, CL_QUEUE_PROFILING_ENABLE, &status);
  LADDER_CL_CHECK_STATUS(clCreateCommandQueue, status);
  cache_scrubber_ = ClCacheScrubber(context_, chosen_device(), context.options);
}

OpenClRung::~OpenClRung() {
  if (queue_) clFinish(queue_);
  for (const GuardedBuffer& buffer : guarded_) clReleaseMemObject(buffer.memory);
  for (cl_event event : compute_events_) clReleaseEvent(event);
  for (cl_kernel kernel : kernels_) clReleaseKernel(kernel);
  for (cl_program program : programs_) clReleaseProgram(program);
  cache_scrubber_ = ClCacheScrubber();
  if (queue_) clReleaseCommandQueue(queue_);
  if (context_) clReleaseContext(context_);
}

cl_kernel OpenClRung::build_kernel(const std::string& file, const std::string& kernel_name,
                                   const std::string& options) {
  const std::string source = opencl_program_source(file, track());
  const char* text = source.c_str();
  cl_int status = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context_, 1, &text, nullptr, &status);
  LADDER_CL_CHECK_STATUS(clCreateProgramWithSource, status);
  programs_.push_back(program);
  std::string flags = "-cl-std=CL1.2 " + options;
  cl_device_id id = device();
  check_build(clBuildProgram(program, 1, &id, flags.c_str(), nullptr, nullptr), program, id, file);
  cl_kernel kernel = clCreateKernel(program, kernel_name.c_str(), &status);
  LADDER_CL_CHECK_STATUS(clCreateKernel, status);
  kernels_.push_back(kernel);
  return kernel;
}

void OpenClRung::check_allocation(std::size_t count, std::size_t value_bytes) const {
  cl_ulong largest = 0;
  LADDER_CL_CHECK(clGetDeviceInfo(device(), CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(largest), &largest, nullptr));
  if (count > largest / value_bytes)  // count * value_bytes > largest, without overflowing
    throw DeviceError("a buffer of " + std::to_string(count) + " values of " + std::to_string(value_bytes) +
                      " bytes does not fit in one allocation on " + device_name() + " (at most " +
                      std::to_string(largest) + " bytes)");
}

void OpenClRung::enqueue_range(cl_kernel kernel, std::size_t dimensions, std::size_t* global,
                               const std::size_t* local) {
  const bool chosen = local[0] > 0;  // 0: the runtime chooses the group size
  if (chosen)
    for (std::size_t d = 0; d < dimensions; ++d) global[d] = round_up(global[d], local[d]);
  cl_event event = nullptr;
  LADDER_CL_CHECK(clEnqueueNDRangeKernel(queue_, kernel, static_cast<cl_uint>(dimensions), nullptr, global,
                                         chosen ? local : nullptr, 0, nullptr, &event));
  compute_events_.push_back(event);
}

void OpenClRung::guard(cl_mem memory, std::size_t bytes) {
  const std::vector<std::byte> pattern(kGuardBytes, Array::kGuardPattern);
  LADDER_CL_CHECK(
      clEnqueueWriteBuffer(queue_, memory, CL_TRUE, bytes, kGuardBytes, pattern.data(), 0, nullptr, nullptr));
  LADDER_CL_CHECK(clRetainMemObject(memory));
  guarded_.push_back({memory, bytes});
}

void OpenClRung::check_device_guard_zones() {
  std::vector<std::byte> zone(kGuardBytes);
  for (std::size_t i = 0; i < guarded_.size(); ++i) {
    LADDER_CL_CHECK(clEnqueueReadBuffer(queue_, guarded_[i].memory, CL_TRUE, guarded_[i].bytes, kGuardBytes,
                                        zone.data(), 0, nullptr, nullptr));
    std::size_t overrun = kGuardBytes;
    while (overrun > 0 && zone[overrun - 1] == Array::kGuardPattern) --overrun;
    if (overrun > 0)
      throw OutOfBounds("a kernel wrote past the end of device buffer " + std::to_string(i + 1) + " of " +
                        std::to_string(guarded_.size()) + " (in the order prepare() made them; " +
                        std::to_string(guarded_[i].bytes) + " bytes): up to " + std::to_string(overrun) +
                        " bytes past its end: is a bounds test missing?");
  }
}

void OpenClRung::synchronize() {
  LADDER_CL_CHECK(clFinish(queue_));
  for (cl_event event : compute_events_) clReleaseEvent(event);
  compute_events_.clear();
}

double OpenClRung::timed_compute() {
  synchronize();
  compute();
  LADDER_CL_CHECK(clFinish(queue_));
  if (compute_events_.empty()) return 0;
  const cl_ulong start = profiling_time(compute_events_.front(), CL_PROFILING_COMMAND_START);
  const cl_ulong end = profiling_time(compute_events_.back(), CL_PROFILING_COMMAND_END);
  synchronize();
  return static_cast<double>(end - start) * 1e-9;
}

void OpenClRung::evict_caches() { cache_scrubber_.scrub(queue_); }

OpenClHostProgramRung::OpenClHostProgramRung(const RungContext& context) : OpenClDeviceRung(context) {
  const OpenClDevice& device = chosen_device();
  if (!device.is_gpu || context.options.warm) return;
  cl_int status = CL_SUCCESS;
  scrub_context_ = clCreateContext(nullptr, 1, &device.device, nullptr, nullptr, &status);
  LADDER_CL_CHECK_STATUS(clCreateContext, status);
  scrub_queue_ = clCreateCommandQueue(scrub_context_, device.device, 0, &status);
  LADDER_CL_CHECK_STATUS(clCreateCommandQueue, status);
  cache_scrubber_ = ClCacheScrubber(scrub_context_, device, context.options);
}

OpenClHostProgramRung::~OpenClHostProgramRung() {
  release_compute_event();
  cache_scrubber_ = ClCacheScrubber();
  if (scrub_queue_) clReleaseCommandQueue(scrub_queue_);
  if (scrub_context_) clReleaseContext(scrub_context_);
}

cl_event* OpenClHostProgramRung::compute_event() {
  release_compute_event();
  return &compute_event_;
}

void OpenClHostProgramRung::release_compute_event() {
  if (compute_event_) clReleaseEvent(compute_event_);
  compute_event_ = nullptr;
}

void OpenClHostProgramRung::synchronize() {
  if (compute_queue()) LADDER_CL_CHECK(clFinish(compute_queue()));
}

double OpenClHostProgramRung::timed_compute() {
  synchronize();
  release_compute_event();
  compute();
  if (!compute_event_)
    throw DeviceError(
        "compute() launched no kernel the harness can time: pass compute_event() as the last argument "
        "of clEnqueueNDRangeKernel (step 5, the launch and the read-back, of the host program)");
  LADDER_CL_CHECK(clWaitForEvents(1, &compute_event_));
  const cl_ulong start = profiling_time(compute_event_, CL_PROFILING_COMMAND_START);
  const cl_ulong end = profiling_time(compute_event_, CL_PROFILING_COMMAND_END);
  return static_cast<double>(end - start) * 1e-9;
}

void OpenClHostProgramRung::evict_caches() { cache_scrubber_.scrub(scrub_queue_); }

DeviceCeilings measure_opencl_ceilings(const RunOptions& options) {
  DeviceCeilings ceilings;
  OpenClDevice device = select_opencl_device(options);
  ceilings.device = device.name;
  if (!device.is_gpu) return ceilings;  // a CPU device shares the host's ceiling
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device.device, nullptr, nullptr, &status);
  LADDER_CL_CHECK_STATUS(clCreateContext, status);
  cl_command_queue queue = clCreateCommandQueue(context, device.device, CL_QUEUE_PROFILING_ENABLE, &status);
  LADDER_CL_CHECK_STATUS(clCreateCommandQueue, status);
  const std::size_t bytes = std::size_t{512} << 20;
  {
    ClBuffer<std::byte> source(context, CL_MEM_READ_WRITE, bytes), target(context, CL_MEM_READ_WRITE, bytes);
    double best = 1e30;
    for (int i = 0; i < 11; ++i) {  // the first run warms up
      cl_event event = nullptr;
      LADDER_CL_CHECK(clEnqueueCopyBuffer(queue, source.get(), target.get(), 0, 0, bytes, 0, nullptr, &event));
      LADDER_CL_CHECK(clWaitForEvents(1, &event));
      cl_ulong start = 0, end = 0;
      LADDER_CL_CHECK(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof(start), &start, nullptr));
      LADDER_CL_CHECK(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof(end), &end, nullptr));
      clReleaseEvent(event);
      if (i > 0) best = std::min(best, (end - start) * 1e-9);
    }
    ceilings.copy_bytes_per_s = 2.0 * bytes / best;
    ceilings.bandwidth_kernel = "clEnqueueCopyBuffer, 512 MiB buffers";
  }
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return ceilings;
}

}  // namespace ladder
