// opencl: a segmented sieve in local memory (primes_sieve in
// kernels/primes/primes.cl). Each work-group sieves a segment of odd numbers
// in local memory with the base primes <= sqrt(n), then writes its flags out.
//
// Given to both tracks (bench/problems/primes/given/): the participant's track builds the
// kernels from exercises/primes/kernels/primes.cl, where the participant
// writes primes_sieve: the host finds the base primes, sizes the segment
// from the device's local memory and launches one work-group per segment.
// The kernel file is read at run time: rerun `ladder check` after editing
// it, without rebuilding.
#include "ladder/opencl.hpp"

#include <algorithm>
#include <cmath>
#include <vector>


namespace ladder {
namespace {

class OpenClPrimes final : public OpenClRung {
 public:
  explicit OpenClPrimes(const RungContext& context) : OpenClRung(context) {}

  void prepare(const Arrays&, Arrays& outputs) override {
    flags_ = outputs.at("flags").view<std::uint8_t>();
    const std::uint64_t odds = (flags_.size() + 1) / 2;

    // The launch: 32 Ki odd numbers per group (32 KiB of local memory), or
    // the largest power of two that the device's local memory holds.
    cl_ulong local_bytes = 0;
    LADDER_CL_CHECK(clGetDeviceInfo(device(), CL_DEVICE_LOCAL_MEM_SIZE, sizeof(local_bytes), &local_bytes, nullptr));
    std::size_t segment = kSegment;
    while (segment > 1024 && segment > local_bytes) segment /= 2;
    groups_ = static_cast<std::size_t>(ceil_div(odds, segment));

    // The base primes 3 <= p <= sqrt(n), found once here on the host (as in cuda.cu).
    const auto root = static_cast<std::uint32_t>(std::sqrt(static_cast<double>(2 * odds))) + 1;
    std::vector<std::uint8_t> composite(root + 1, 0);
    std::vector<cl_uint> primes;
    for (std::uint32_t p = 3; p <= root; p += 2) {
      if (composite[p]) continue;
      primes.push_back(p);
      for (std::uint64_t m = std::uint64_t{p} * p; m <= root; m += 2 * p) composite[m] = 1;
    }
    d_primes_ = device_buffer<cl_uint>(CL_MEM_READ_ONLY, primes.size());
    if (!primes.empty())
      LADDER_CL_CHECK(clEnqueueWriteBuffer(queue(), d_primes_.get(), CL_TRUE, 0, primes.size() * sizeof(cl_uint),
                                           primes.data(), 0, nullptr, nullptr));
    d_flags_ = device_buffer<std::uint8_t>(CL_MEM_WRITE_ONLY, flags_.size());
    kernel_ = build_kernel("primes/primes.cl", "primes_sieve", "-DSEGMENT=" + std::to_string(segment));
    // The primes below the group size come first: a whole group shares each.
    const auto small_count =
        static_cast<cl_uint>(std::lower_bound(primes.begin(), primes.end(), kWorkGroupSize) - primes.begin());
    set_arguments(kernel_, d_primes_.get(), small_count, static_cast<cl_uint>(primes.size()),
                  static_cast<cl_ulong>(flags_.size()), d_flags_.get());
  }

  void compute() override {
    if (groups_ > 0) enqueue(kernel_, groups_ * kWorkGroupSize, kWorkGroupSize);  // no zero-sized launch for n = 0
  }
  void download() override {
    if (!flags_.empty()) read(flags_, d_flags_);
  }

 private:
  static constexpr std::size_t kSegment = 32 * 1024;
  static constexpr std::size_t kWorkGroupSize = 256;
  std::span<std::uint8_t> flags_;
  ClBuffer<cl_uint> d_primes_;
  ClBuffer<std::uint8_t> d_flags_;
  cl_kernel kernel_ = nullptr;
  std::size_t groups_ = 0;
};

}  // namespace
LADDER_REGISTER_RUNG(primes, opencl, OpenClPrimes);
}  // namespace ladder
