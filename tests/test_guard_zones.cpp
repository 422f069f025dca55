// Guard zones (issue 49): every output array the harness owns is followed
// by a zone of a known pattern, checked after each compute, so that a rung
// writing past the end of its output fails the check, naming the output
// and how far past the end it wrote, instead of passing silently. The rung
// planted here is vector_add's serial loop written to <= n instead of < n,
// the classic off-by-one of an OpenMP loop. It is built into a binary of
// its own, like test_adding_a_rung.cpp's: neither `ladder` nor the rung
// tests see it.
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>

#include "ladder/error.hpp"
#include "ladder/harness.hpp"
#include "ladder/registry.hpp"

namespace ladder {
namespace {

// c = a + b, one element too far: c[n] lies in the output's guard zone.
class TestOnlyOnePastTheEnd final : public OpenMpRung {
 public:
  explicit TestOnlyOnePastTheEnd(const RungContext&) {}
  void prepare(const Arrays& inputs, Arrays& outputs) override {
    a_ = inputs.at("a").view<float>().data();
    b_ = inputs.at("b").view<float>().data();
    c_ = outputs.at("c").view<float>().data();
    n_ = static_cast<long>(outputs.at("c").size());
  }
  void compute() override {
    // a and b are read one past their end too: their guard zones, harmless.
#pragma omp parallel for
    for (long i = 0; i <= n_; ++i) c_[i] = a_[i] + b_[i];
  }

 private:
  const float* a_ = nullptr;
  const float* b_ = nullptr;
  float* c_ = nullptr;
  long n_ = 0;
};

}  // namespace
LADDER_REGISTER_RUNG(vector_add, openmp_test_only_one_past_the_end, TestOnlyOnePastTheEnd);

namespace {

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
  auto problem = make_problem("vector_add");
  const Params params = problem->resolve("tiny", Params(std::map<std::string, std::string>{{"n", "1021"}}));
  const Arrays inputs = problem->generate(params, 1);
  const RungEntry* entry = find_rung("vector_add", kRung);
  ASSERT_NE(entry, nullptr);
  try {
    run_once(*entry, inputs, params, RunOptions{}, *problem);
    FAIL() << "a write one past the end of c passed";
  } catch (const OutOfBounds& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("past the end of output 'c'"), std::string::npos) << message;
    EXPECT_NE(message.find("up to 4 bytes past its end (1 float32 value"), std::string::npos) << message;
  }
}

TEST(GuardZoneTest, TheHarnessReportsTheRungAsFailed) {
  std::ostringstream progress;
  Harness harness(RunOptions{}, TimingPolicy{0.001, 3, 20, 60}, Ceilings{}, progress);
  bool any_failed = false;
  const nlohmann::json result = harness.run({"vector_add", "tiny", {}, {kRung}, 1}, any_failed);
  EXPECT_TRUE(any_failed);
  ASSERT_EQ(result["rungs"].size(), 1u);
  EXPECT_EQ(result["rungs"][0]["status"], "failed");
  EXPECT_NE(result["rungs"][0]["reason"].get<std::string>().find("past the end of output 'c'"), std::string::npos)
      << result["rungs"][0];
}

}  // namespace
}  // namespace ladder
