// opencl: privatisation on the device. Each work-group counts into its own
// histogram in local memory (kernels/histogram/histogram.cl), then adds it
// to the global counts: 256 global atomics per group, not one per value.
//
// Given to both tracks (bench/problems/histogram/given/): the participant's track builds
// the kernels from exercises/histogram/kernels/histogram.cl, where the
// participant writes histogram_local: the host launches a few work-groups
// per compute unit, histogram_zero (given) and then histogram_local. The
// kernel file is read at run time: rerun `ladder check` after editing it,
// without rebuilding.
#include "ladder/opencl.hpp"

namespace ladder {
namespace {

class OpenClHistogram final : public OpenClRung {
 public:
  explicit OpenClHistogram(const RungContext& context) : OpenClRung(context) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    values_ = inputs.at("values").view<std::uint8_t>();
    counts_ = outputs.at("counts").view<std::uint32_t>();
    d_values_ = device_buffer<std::uint8_t>(CL_MEM_READ_ONLY, values_.size());
    d_counts_ = device_buffer<std::uint32_t>(CL_MEM_READ_WRITE, counts_.size());
    zero_ = build_kernel("histogram/histogram.cl", "histogram_zero");
    count_ = build_kernel("histogram/histogram.cl", "histogram_local");
    set_arguments(zero_, d_counts_.get());
    set_arguments(count_, d_values_.get(), static_cast<cl_uint>(values_.size()), d_counts_.get());

    // Enough groups to fill every compute unit a few times over, no more
    // than the values need: each extra group costs 256 global atomics.
    cl_uint compute_units = 1;
    LADDER_CL_CHECK(
        clGetDeviceInfo(device(), CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(compute_units), &compute_units, nullptr));
    const std::size_t wanted = std::size_t{compute_units} * kGroupsPerComputeUnit;
    const std::size_t needed = ceil_div(values_.size(), kWorkGroupSize);
    global_size_ = std::min(wanted, needed) * kWorkGroupSize;
  }

  void upload() override { write(d_values_, values_); }
  void compute() override {
    enqueue(zero_, counts_.size(), 0);
    enqueue(count_, global_size_, kWorkGroupSize);
  }
  void download() override { read(counts_, d_counts_); }

 private:
  static constexpr std::size_t kWorkGroupSize = 256;
  static constexpr std::size_t kGroupsPerComputeUnit = 8;
  std::span<const std::uint8_t> values_;
  std::span<std::uint32_t> counts_;
  ClBuffer<std::uint8_t> d_values_;
  ClBuffer<std::uint32_t> d_counts_;
  cl_kernel zero_ = nullptr;
  cl_kernel count_ = nullptr;
  std::size_t global_size_ = kWorkGroupSize;
};

}  // namespace
LADDER_REGISTER_RUNG(histogram, opencl, OpenClHistogram);
}  // namespace ladder
