// Guard zones (issue 49): every output array the harness owns is followed
// by a zone of a known pattern, checked after each compute, so that a rung
// writing past the end of its output fails the check, naming the output
// and how far past the end it wrote, instead of passing silently. The rung
// checked is vector_add's openmp rung with its loop written to <= n instead
// of < n, the classic off-by-one of an OpenMP loop, planted by
// tests/CMakeLists.txt into a binary of its own, like
// test_adding_a_rung.cpp's: neither `ladder` nor the rung tests see it.
#include <gtest/gtest.h>

#include <cstring>

#include "guard_zone_checks.hpp"
#include "ladder/array.hpp"

namespace ladder {
namespace {

using guard_zone_checks::expect_run_once_refuses;
using guard_zone_checks::expect_the_harness_fails;

// solutions/vector_add/openmp.cpp, its loop to i <= n_: c[n] lies in the
// output's guard zone (and a[n] and b[n], read, in theirs: harmless).
const std::string kRung = "openmp_test_only_one_past_the_end";

TEST(GuardZoneTest, IsIntactAfterWritesWithinTheData) {
  for (std::size_t n : {1u, 7u, 1024u, 4096u}) {  // 4096 bytes: the data ends on a page, the guard is a page more
    Array array(DType::u8, {n});
    std::memset(array.raw(), 0xFD, array.bytes());  // even the guard's own pattern, within the data
    EXPECT_GE(array.guard_bytes(), Array::kGuardBytes) << n;
    EXPECT_EQ(array.guard_overrun(), 0u) << n;
  }
}

TEST(GuardZoneTest, SaysHowFarPastTheEndAWriteReached) {
  Array array(DType::f32, {1000});
  array.raw()[array.bytes()] = std::byte{0};
  EXPECT_EQ(array.guard_overrun(), 1u);
  array.raw()[array.bytes() + 11] = std::byte{0};
  EXPECT_EQ(array.guard_overrun(), 12u);
}

TEST(GuardZoneTest, ACopyHasItsOwnIntactGuard) {
  Array array(DType::f32, {3});
  array.raw()[array.bytes()] = std::byte{0};
  EXPECT_EQ(Array(array).guard_overrun(), 0u);
}

TEST(GuardZoneTest, RunOnceRefusesALoopOnePastTheEnd) {
  expect_run_once_refuses(kRung, {"past the end of output 'c'", "up to 4 bytes past its end (1 float32 value"});
}

TEST(GuardZoneTest, TheHarnessReportsTheRungAsFailed) {
  expect_the_harness_fails(kRung, "past the end of output 'c'");
}

}  // namespace
}  // namespace ladder
