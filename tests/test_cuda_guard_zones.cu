// Guard zones on a CUDA rung's device buffers (test_guard_zones.cpp has the
// host outputs' and says why): each buffer CudaRung::device_buffer makes is
// followed by a zone of a known pattern, checked after each download, so
// that a kernel writing past the end of its buffer fails the check, naming
// the buffer and how far past the end it wrote. The rung planted here
// launches vector_add's own kernel with n + 1 for n: the off-by-one in the
// host code that a participant can make.
// A binary of its own, like test_guard_zones.cpp's; skipped where there is
// no GPU to run it on.
#include <gtest/gtest.h>

#include <cstddef>
#include <sstream>
#include <string>

#include "ladder/backends.hpp"
#include "ladder/cuda.cuh"
#include "ladder/error.hpp"
#include "ladder/harness.hpp"
#include "ladder/registry.hpp"

// vector_add's kernel (kernels/vector_add/vector_add.cuh), defined where the
// solution's cuda rung includes it: declared here, not included, so that
// this binary, which links the solutions, has one definition of it.
__global__ void vector_add(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                           std::size_t n);

namespace ladder {
namespace {

class TestOnlyCudaOnePastTheEnd final : public CudaRung {
 public:
  explicit TestOnlyCudaOnePastTheEnd(const RungContext& context) : CudaRung(context) {}
  void prepare(const Arrays& inputs, Arrays& outputs) override {
    a_ = inputs.at("a").view<float>();
    b_ = inputs.at("b").view<float>();
    c_ = outputs.at("c").view<float>();
    d_a_ = device_buffer<float>(a_.size());
    d_b_ = device_buffer<float>(b_.size());
    d_c_ = device_buffer<float>(c_.size());
  }
  void upload() override {
    copy_to_device(d_a_, a_);
    copy_to_device(d_b_, b_);
  }
  // c = a + b, one element too far: c[n] lies in d_c's guard zone (and a[n]
  // and b[n], read, in theirs: harmless).
  void compute() override {
    const std::size_t n = c_.size() + 1;
    const auto blocks = static_cast<unsigned>(ceil_div(ceil_div(n, std::size_t{4}), std::size_t{kThreads}));
    vector_add<<<blocks, kThreads, 0, stream()>>>(d_a_.data(), d_b_.data(), d_c_.data(), n);
    LADDER_CUDA_CHECK_LAUNCH();
  }
  void download() override { copy_to_host(c_, d_c_); }

 private:
  static constexpr unsigned kThreads = 256;
  std::span<const float> a_, b_;
  std::span<float> c_;
  DeviceBuffer<float> d_a_, d_b_, d_c_;
};

}  // namespace
LADDER_REGISTER_RUNG(vector_add, cuda_test_only_one_past_the_end, TestOnlyCudaOnePastTheEnd);

namespace {

const std::string kRung = "cuda_test_only_one_past_the_end";

// Skips the test, with the reason, where no CUDA device is there.
#define SKIP_WITHOUT_A_GPU()                                                \
  do {                                                                      \
    const Availability cuda = cuda_availability(RunOptions{});              \
    if (!cuda.available) GTEST_SKIP() << "no CUDA device: " << cuda.reason; \
  } while (0)

TEST(CudaGuardZoneTest, RunOnceRefusesAKernelOnePastTheEnd) {
  SKIP_WITHOUT_A_GPU();
  auto problem = make_problem("vector_add");
  const Params params = problem->resolve("tiny", Params(std::map<std::string, std::string>{{"n", "1021"}}));
  const Arrays inputs = problem->generate(params, 1);
  const RungEntry* entry = find_rung("vector_add", kRung);
  ASSERT_NE(entry, nullptr);
  try {
    run_once(*entry, inputs, params, RunOptions{}, *problem);
    FAIL() << "a write one past the end of d_c passed";
  } catch (const OutOfBounds& error) {
    const std::string message = error.what();
    // d_c is the third of the three buffers prepare() made: 1021 floats.
    EXPECT_NE(message.find("past the end of device buffer 3 of 3"), std::string::npos) << message;
    EXPECT_NE(message.find("4084 bytes): up to 4 bytes past its end"), std::string::npos) << message;
  }
}

TEST(CudaGuardZoneTest, TheHarnessReportsTheRungAsFailed) {
  SKIP_WITHOUT_A_GPU();
  std::ostringstream progress;
  Harness harness(RunOptions{}, TimingPolicy{0.001, 3, 20, 60}, Ceilings{}, progress);
  bool any_failed = false;
  const nlohmann::json result = harness.run({"vector_add", "tiny", {}, {kRung}, 1}, any_failed);
  EXPECT_TRUE(any_failed);
  ASSERT_EQ(result["rungs"].size(), 1u);
  EXPECT_EQ(result["rungs"][0]["status"], "failed");
  EXPECT_NE(result["rungs"][0]["reason"].get<std::string>().find("past the end of device buffer"), std::string::npos)
      << result["rungs"][0];
}

// The real cuda rung, the same but for its bounds test, leaves its guard zones intact.
TEST(CudaGuardZoneTest, AKernelWithinItsBuffersPasses) {
  SKIP_WITHOUT_A_GPU();
  auto problem = make_problem("vector_add");
  const Params params = problem->resolve("tiny", Params(std::map<std::string, std::string>{{"n", "1021"}}));
  const Arrays inputs = problem->generate(params, 1);
  const RungEntry* entry = find_rung("vector_add", "cuda");
  ASSERT_NE(entry, nullptr);
  EXPECT_NO_THROW(run_once(*entry, inputs, params, RunOptions{}, *problem));
}

}  // namespace
}  // namespace ladder
