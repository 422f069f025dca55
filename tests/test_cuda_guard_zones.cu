// Guard zones on a CUDA rung's device buffers (test_guard_zones.cpp has the
// host outputs' and says why): each buffer CudaRung::device_buffer makes is
// followed by a zone of a known pattern, checked after each download, so
// that a kernel writing past the end of its buffer fails the check, naming
// the buffer and how far past the end it wrote. The rung checked is
// vector_add's cuda rung launching its kernel with n + 1 for n, the
// off-by-one in the host code that a participant can make, planted by
// tests/CMakeLists.txt into a binary of its own, like test_guard_zones.cpp's;
// skipped where there is no GPU to run it on.
#include <gtest/gtest.h>

#include "guard_zone_checks.hpp"
#include "ladder/backends.hpp"

namespace ladder {
namespace {

using guard_zone_checks::expect_run_once_refuses;
using guard_zone_checks::expect_the_harness_fails;
using guard_zone_checks::run_vector_add_once;

// solutions/vector_add/cuda.cu, its kernel launched with c_.size() + 1 on
// the same grid: c[n] lies in d_c's guard zone (and a[n] and b[n], read, in
// theirs: harmless).
const std::string kRung = "cuda_test_only_one_past_the_end";

// Skips the test, with the reason, where no CUDA device is there.
#define SKIP_WITHOUT_A_GPU()                                                \
  do {                                                                      \
    const Availability cuda = cuda_availability(RunOptions{});              \
    if (!cuda.available) GTEST_SKIP() << "no CUDA device: " << cuda.reason; \
  } while (0)

TEST(CudaGuardZoneTest, RunOnceRefusesAKernelOnePastTheEnd) {
  SKIP_WITHOUT_A_GPU();
  // d_c is the third of the three buffers prepare() makes: 1021 floats.
  expect_run_once_refuses(kRung, {"past the end of device buffer 3 of 3", "4084 bytes): up to 4 bytes past its end"});
}

TEST(CudaGuardZoneTest, TheHarnessReportsTheRungAsFailed) {
  SKIP_WITHOUT_A_GPU();
  expect_the_harness_fails(kRung, "past the end of device buffer");
}

// The real cuda rung, the same but for its bounds, leaves its guard zones intact.
TEST(CudaGuardZoneTest, AKernelWithinItsBuffersPasses) {
  SKIP_WITHOUT_A_GPU();
  EXPECT_NO_THROW(run_vector_add_once("cuda"));
}

}  // namespace
}  // namespace ladder
