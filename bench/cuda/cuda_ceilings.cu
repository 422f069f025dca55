// The device's own limits, measured once per run: its memory bandwidth, the
// best of a device-to-device copy and STREAM's kernels (what a streaming
// kernel can hope for), PCIe bandwidth in each
// direction, pinned and pageable, and pinned in both at once, and the FP32
// rate (what a compute-bound kernel can hope for).
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>

#include "ladder/backends.hpp"
#include "ladder/cuda.cuh"

namespace ladder {
namespace {

// Best of `repetitions` event-timed runs of `copy`, in seconds; `before`
// (untimed) runs ahead of each.
template <class Copy, class Before = void (*)()>
double best_time(
    cudaStream_t stream, int repetitions, Copy copy, Before before = [] {}) {
  CudaEvent start(CudaEvent::timed), stop(CudaEvent::timed);
  float best = 1e30f;
  for (int i = 0; i < repetitions + 1; ++i) {  // the first run warms up
    before();
    LADDER_CUDA_CHECK(cudaEventRecord(start.get(), stream));
    copy();
    LADDER_CUDA_CHECK(cudaEventRecord(stop.get(), stream));
    LADDER_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    float ms = 0;
    LADDER_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    if (i > 0) best = std::min(best, ms);
  }
  return best * 1e-3;
}

// Eight independent chains of multiply-adds per thread, so that every
// scheduler has one ready each cycle; the inner loop unrolled so that its
// counter costs under 2 % of the instructions. The sums are stored, so that
// none of the work can be optimised away.
constexpr int kChains = 8;
constexpr int kUnroll = 16;
__global__ void fused_multiply_adds(float* out, int rounds, float a, float b) {
  float x[kChains];
#pragma unroll
  for (int i = 0; i < kChains; ++i) x[i] = float(threadIdx.x + i);
  for (int r = 0; r < rounds; ++r)
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
#pragma unroll
      for (int i = 0; i < kChains; ++i) x[i] = fmaf(x[i], a, b);
  float sum = 0;
#pragma unroll
  for (int i = 0; i < kChains; ++i) sum += x[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// FP32 operations per second (2 a multiply-add) with every SM full.
double measure_fp32_rate(const cudaDeviceProp& properties, cudaStream_t stream) {
  constexpr int kThreads = 256, kRounds = 2048;
  const int blocks = properties.multiProcessorCount * (properties.maxThreadsPerMultiProcessor / kThreads);
  DeviceBuffer<float> out(std::size_t(blocks) * kThreads);
  const double seconds = best_time(stream, 5, [&] {
    fused_multiply_adds<<<blocks, kThreads, 0, stream>>>(out.data(), kRounds, 0.999999f, 1e-6f);
    LADDER_CUDA_CHECK(cudaGetLastError());
  });
  return 2.0 * double(blocks) * kThreads * kRounds * kUnroll * kChains / seconds;
}

// STREAM's kernels on the device (McCalpin's copy, add and triad), 16 bytes
// a load, one thread per float4 and a block per 256 of them: what a
// streaming rung like vector_add can reach (the same shape as its kernel,
// which on an H100 outran both cudaMemcpy and a grid-stride loop over the
// resident grid: 104 % of the better of those two).
__device__ __forceinline__ std::size_t element() { return blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; }
__global__ void stream_copy(const float4* __restrict__ b, float4* __restrict__ a, std::size_t n) {
  if (const std::size_t i = element(); i < n) a[i] = b[i];
}
__global__ void stream_add(const float4* __restrict__ a, const float4* __restrict__ b, float4* __restrict__ c,
                           std::size_t n) {
  if (const std::size_t i = element(); i < n) {
    const float4 x = a[i], y = b[i];
    c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}
__global__ void stream_triad(const float4* __restrict__ b, const float4* __restrict__ c, float4* __restrict__ a,
                             float s, std::size_t n) {
  if (const std::size_t i = element(); i < n) {
    const float4 x = b[i], y = c[i];
    a[i] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
  }
}

// The device's bandwidth: the best of cudaMemcpy and STREAM's three kernels,
// bytes read + written over the best of 40 runs, each over arrays of one L2,
// two L2s and `largest` bytes. Sets `kernel` to the one that set it, and its
// size. The smaller sizes are there because a kernel's own output still in
// the L2 when it ends is written back after its time (the harness evicts by
// reading before each timing, as below): at arrays of 1.3 L2s (vector_add at
// the workshop size) that made vector_add read 102 % of a ceiling measured
// on 512 MiB arrays alone, on an H100.
double measure_stream_bandwidth(const cudaDeviceProp& properties, cudaStream_t stream, std::size_t largest,
                                std::string& kernel) {
  DeviceBuffer<std::byte> a(largest), b(largest), c(largest);
  DeviceBuffer<std::byte> scrubber(2 * static_cast<std::size_t>(properties.l2CacheSize));
  LADDER_CUDA_CHECK(cudaMemsetAsync(scrubber.data(), 0, scrubber.bytes(), stream));
  LADDER_CUDA_CHECK(cudaMemsetAsync(b.data(), 1, largest, stream));
  LADDER_CUDA_CHECK(cudaMemsetAsync(c.data(), 2, largest, stream));
  auto* fa = reinterpret_cast<float4*>(a.data());
  auto* fb = reinterpret_cast<float4*>(b.data());
  auto* fc = reinterpret_cast<float4*>(c.data());
  const std::size_t l2 = static_cast<std::size_t>(properties.l2CacheSize) / sizeof(float4) * sizeof(float4);
  double best = 0;
  for (const std::size_t bytes : {std::min(l2, largest), std::min(2 * l2, largest), largest}) {
    const std::size_t n = bytes / sizeof(float4);
    constexpr unsigned kThreads = 256;
    const auto blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
    struct Candidate {
      const char* name;
      double bytes_moved;
      std::function<void()> run;
    };
    const Candidate candidates[] = {
        {"cudaMemcpy", 2.0 * bytes,
         [&] { LADDER_CUDA_CHECK(cudaMemcpyAsync(a.data(), b.data(), bytes, cudaMemcpyDeviceToDevice, stream)); }},
        {"STREAM copy", 2.0 * bytes, [&] { stream_copy<<<blocks, kThreads, 0, stream>>>(fb, fa, n); }},
        {"STREAM add", 3.0 * bytes, [&] { stream_add<<<blocks, kThreads, 0, stream>>>(fa, fb, fc, n); }},
        {"STREAM triad", 3.0 * bytes, [&] { stream_triad<<<blocks, kThreads, 0, stream>>>(fb, fc, fa, 3.0f, n); }},
    };
    for (const Candidate& candidate : candidates) {
      // The ceilings are measured first, while the GPU may still be coming up
      // from its idle clocks: 20 untimed runs of each, then the best of 40.
      // Each timing after the L2 is evicted by reading, as the harness times a
      // rung: otherwise each run pays for writing back the lines the run
      // before it left dirty (up to an L2's worth, 50 MB on an H100), and
      // vector_add read 101 % of this ceiling on an H100 and an H200.
      for (int i = 0; i < 20; ++i) candidate.run();
      auto run = [&] {
        candidate.run();
        LADDER_CUDA_CHECK(cudaGetLastError());
      };
      auto evict = [&] { evict_l2_by_reading(scrubber, properties, stream); };
      const double rate = candidate.bytes_moved / best_time(stream, 40, run, evict);
      if (rate > best)
        best = rate, kernel = std::string(candidate.name) + ", " + std::to_string(bytes >> 20) + " MiB arrays";
    }
  }
  return best;
}

}  // namespace

DeviceCeilings measure_cuda_ceilings(const RunOptions& options) {
  DeviceCeilings ceilings;
  int device = select_cuda_device(options);
  LADDER_CUDA_CHECK(cudaSetDevice(device));
  cudaDeviceProp properties{};
  LADDER_CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
  ceilings.device = properties.name;

  const std::size_t copy_bytes = std::size_t{512} << 20;  // the largest arrays, well above any L2
  const std::size_t transfer_bytes = std::size_t{256} << 20;
  {
    CudaStream stream;  // destroyed first, it waits for its kernels
    ceilings.copy_bytes_per_s =
        measure_stream_bandwidth(properties, stream.get(), copy_bytes, ceilings.bandwidth_kernel);
  }
  DeviceBuffer<std::byte> source(transfer_bytes), target(transfer_bytes);
  CudaStream stream;  // after the buffers: destroyed first, it waits for its copies
  ceilings.fp32_operations_per_s = measure_fp32_rate(properties, stream.get());

  auto transfer_rates = [&](void* host, double& up, double& down) {
    up =
        transfer_bytes / best_time(stream.get(), 5, [&] {
          LADDER_CUDA_CHECK(cudaMemcpyAsync(source.data(), host, transfer_bytes, cudaMemcpyHostToDevice, stream.get()));
        });
    down =
        transfer_bytes / best_time(stream.get(), 5, [&] {
          LADDER_CUDA_CHECK(cudaMemcpyAsync(host, source.data(), transfer_bytes, cudaMemcpyDeviceToHost, stream.get()));
        });
  };
  {
    PinnedHostBuffer<std::byte> pinned(transfer_bytes), pinned_out(transfer_bytes);  // freed before the pageable buffer
    transfer_rates(pinned.data(), ceilings.host_to_device_pinned, ceilings.device_to_host_pinned);
    // An upload and a download at once, each on its own stream, as a
    // stream pipeline overlaps them.
    StreamLanes<2> lanes;
    ceilings.both_directions_pinned =
        2.0 * transfer_bytes / best_time(stream.get(), 5, [&] {
          lanes.fork(stream.get());
          LADDER_CUDA_CHECK(
              cudaMemcpyAsync(source.data(), pinned.data(), transfer_bytes, cudaMemcpyHostToDevice, lanes[0]));
          LADDER_CUDA_CHECK(
              cudaMemcpyAsync(pinned_out.data(), target.data(), transfer_bytes, cudaMemcpyDeviceToHost, lanes[1]));
          lanes.join(stream.get());
        });
  }
  std::unique_ptr<std::byte[]> pageable(new std::byte[transfer_bytes]());
  transfer_rates(pageable.get(), ceilings.host_to_device_pageable, ceilings.device_to_host_pageable);
  return ceilings;
}

}  // namespace ladder
