// opencl: the whole loop on the device (kernels/kappa_sigma/kappa_sigma.cl).
// The kept values are those strictly inside one interval, so no mask and no
// compaction are kept between iterations: each pass reads the image and
// tests the interval. The median is a radix select over the float bit
// patterns (three histogram passes, no sort); the moments are group sums in
// double, added by one work-group in a fixed order (OpenCL 1.2 has no atomic
// add for doubles). The host only enqueues: it reads back one flag every
// few iterations, and nothing else until the end.
//
// Given to both tracks (bench/problems/kappa_sigma/given/): the participant's track builds
// the kernels from exercises/kappa_sigma/kernels/kappa_sigma.cl, where the
// participant writes the kernels this host enqueues: clip_start, then per
// iteration clip_survey, clip_select(0), clip_refine(1), clip_select(1),
// clip_refine(2), clip_select(2), and clip_mask after the loop. The kernel
// file is read at run time: rerun `ladder check` after editing it, without
// rebuilding.
#include "ladder/opencl.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/problems/kappa_sigma/given/clip.hpp"
#include "ladder/error.hpp"

namespace ladder {
namespace {

// The device's ClipState (kappa_sigma.cl), field for field.
struct ClipState {
  cl_double lower, upper, pass_lower, pass_upper, median, mean, std, shift;
  cl_uint count, iterations, done, unused;
  cl_uint prefix[2], rank[2];
};
static_assert(sizeof(ClipState) == 96);

class OpenClKappaSigma final : public OpenClRung {
 public:
  explicit OpenClKappaSigma(const RungContext& context)
      : OpenClRung(context), kappa_(kappa_sigma::kappa_of(context.params)) {}

  void prepare(const Arrays& inputs, Arrays& outputs) override {
    require_doubles();
    image_ = inputs.at("image").view<float>();
    mask_ = outputs.at("mask").view<std::uint8_t>();
    statistics_ = outputs.at("statistics").view<double>();
    const auto n = static_cast<cl_uint>(image_.size());

    // Enough groups to fill every compute unit a few times, no more than
    // the pixels need; one group's sums are 3 doubles.
    cl_uint compute_units = 1;
    LADDER_CL_CHECK(
        clGetDeviceInfo(device(), CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(compute_units), &compute_units, nullptr));
    groups_ = std::min<std::size_t>(std::size_t{compute_units} * kGroupsPerComputeUnit,
                                    ceil_div(image_.size(), kGroupSize));
    const auto groups = static_cast<cl_uint>(groups_);

    d_image_ = device_buffer<float>(CL_MEM_READ_ONLY, image_.size());
    d_mask_ = device_buffer<std::uint8_t>(CL_MEM_WRITE_ONLY, mask_.size());
    d_statistics_ = device_buffer<double>(CL_MEM_WRITE_ONLY, statistics_.size());
    d_state_ = ClBuffer<ClipState>(context(), CL_MEM_READ_WRITE, 1);
    d_partials_ = device_buffer<double>(CL_MEM_READ_WRITE, 3 * groups_);
    d_counts_ = device_buffer<cl_uint>(CL_MEM_READ_WRITE, 2 * kBuckets);
    // clip_select clears the histograms after reading them: zero them once.
    // Written from the host, not filled (clEnqueueFillBuffer): Oclgrind's
    // check for uninitialised values (ladder check --race) does not see a fill.
    const std::vector<cl_uint> zeros(2 * kBuckets, 0);
    write(d_counts_, std::span<const cl_uint>(zeros));
    LADDER_CL_CHECK(clFinish(queue()));

    const std::string file = "kappa_sigma/kappa_sigma.cl";
    start_ = build_kernel(file, "clip_start");
    survey_ = build_kernel(file, "clip_survey");
    refine_ = build_kernel(file, "clip_refine");
    select_ = build_kernel(file, "clip_select");
    mask_kernel_ = build_kernel(file, "clip_mask");
    set_arguments(start_, d_image_.get(), n, d_state_.get());
    set_arguments(survey_, d_image_.get(), n, d_state_.get(), d_partials_.get(), d_counts_.get());
    set_arguments(refine_, d_image_.get(), n, d_state_.get(), d_counts_.get(), cl_uint{1});
    set_arguments(select_, d_state_.get(), d_partials_.get(), groups, d_counts_.get(), cl_uint{0},
                  static_cast<cl_double>(kappa_));
    set_arguments(mask_kernel_, d_image_.get(), n, d_state_.get(), d_mask_.get(), d_statistics_.get());
  }

  void upload() override { write(d_image_, image_); }

  void compute() override {
    enqueue(start_, 1, 1);
    // Each iteration removes at least one value, so there are at most n + 1.
    const std::size_t most = image_.size() + 1;
    for (std::size_t iterations = 0;; iterations += kIterationsPerCheck) {
      if (iterations > most) throw std::logic_error("kappa_sigma opencl: the loop did not end");
      for (std::size_t k = 0; k < kIterationsPerCheck; ++k) {
        const std::size_t global = groups_ * kGroupSize;
        enqueue(survey_, global, kGroupSize);
        select(0);
        refine(1, global);
        select(1);
        refine(2, global);
        select(2);
      }
      // The only read inside the loop: has it ended? (blocking, 4 bytes)
      cl_uint done = 0;
      LADDER_CL_CHECK(clEnqueueReadBuffer(queue(), d_state_.get(), CL_TRUE, offsetof(ClipState, done), sizeof done,
                                          &done, 0, nullptr, nullptr));
      if (done) break;
    }
    enqueue(mask_kernel_, groups_ * kGroupSize, kGroupSize);
  }

  void download() override {
    read(mask_, d_mask_);
    read(statistics_, d_statistics_);
  }

 private:
  // Iterations enqueued between two reads of the done flag: the kernels of
  // the iterations after the last return at once.
  static constexpr std::size_t kIterationsPerCheck = 4;
  static constexpr std::size_t kGroupSize = 256;  // GROUP in kappa_sigma.cl
  static constexpr std::size_t kBuckets = 2048;   // BUCKETS
  static constexpr std::size_t kGroupsPerComputeUnit = 8;

  void select(cl_uint pass) {
    LADDER_CL_CHECK(clSetKernelArg(select_, 4, sizeof pass, &pass));  // arguments are captured at enqueue
    enqueue(select_, kGroupSize, kGroupSize);
  }
  void refine(cl_uint pass, std::size_t global) {
    LADDER_CL_CHECK(clSetKernelArg(refine_, 4, sizeof pass, &pass));
    enqueue(refine_, global, kGroupSize);
  }

  void require_doubles() const {
    std::size_t size = 0;
    LADDER_CL_CHECK(clGetDeviceInfo(device(), CL_DEVICE_EXTENSIONS, 0, nullptr, &size));
    std::string extensions(size, '\0');
    LADDER_CL_CHECK(clGetDeviceInfo(device(), CL_DEVICE_EXTENSIONS, size, extensions.data(), nullptr));
    if (extensions.find("cl_khr_fp64") == std::string::npos)
      throw DeviceError("kappa_sigma opencl: the device " + device_name() +
                        " lacks cl_khr_fp64 (double precision), which the sums and bounds need");
  }

  double kappa_;
  std::span<const float> image_;
  std::span<std::uint8_t> mask_;
  std::span<double> statistics_;
  std::size_t groups_ = 1;
  ClBuffer<float> d_image_;
  ClBuffer<std::uint8_t> d_mask_;
  ClBuffer<double> d_statistics_;
  ClBuffer<ClipState> d_state_;
  ClBuffer<double> d_partials_;
  ClBuffer<cl_uint> d_counts_;
  cl_kernel start_ = nullptr, survey_ = nullptr, refine_ = nullptr, select_ = nullptr, mask_kernel_ = nullptr;
};

}  // namespace
LADDER_REGISTER_RUNG(kappa_sigma, opencl, OpenClKappaSigma);
}  // namespace ladder
