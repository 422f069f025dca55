#pragma once
// The checks that the guard zones' tests share, on the host's outputs
// (test_guard_zones.cpp) and on a CUDA rung's device buffers
// (test_cuda_guard_zones.cu): a rung of vector_add run on 1021 floats, once
// and through the harness. The rungs they check are vector_add's own with
// one mistake planted (tests/CMakeLists.txt, ladder_plant).
#include <gtest/gtest.h>

#include <initializer_list>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include "ladder/error.hpp"
#include "ladder/harness.hpp"
#include "ladder/registry.hpp"

namespace ladder::guard_zone_checks {

// 1021 floats: not a whole number of float4 groups, nor of pages.
inline void run_vector_add_once(const std::string& rung) {
  auto problem = make_problem("vector_add");
  const Params params = problem->resolve("tiny", Params(std::map<std::string, std::string>{{"n", "1021"}}));
  const Arrays inputs = problem->generate(params, 1);
  const RungEntry* entry = find_rung("vector_add", rung);
  ASSERT_NE(entry, nullptr) << rung;
  run_once(*entry, inputs, params, RunOptions{}, *problem);
}

// run_once throws OutOfBounds, its message holding each of `expected`: the
// array written past and how far past its end.
inline void expect_run_once_refuses(const std::string& rung, std::initializer_list<std::string> expected) {
  try {
    run_vector_add_once(rung);
    if (!::testing::Test::HasFatalFailure()) ADD_FAILURE() << rung << " wrote past the end of its output and passed";
  } catch (const OutOfBounds& error) {
    const std::string message = error.what();
    for (const std::string& part : expected) EXPECT_NE(message.find(part), std::string::npos) << message;
  }
}

// The harness reports the rung as failed, the reason holding `expected`.
inline void expect_the_harness_fails(const std::string& rung, const std::string& expected) {
  std::ostringstream progress;
  Harness harness(RunOptions{}, TimingPolicy{0.001, 3, 20, 60}, Ceilings{}, progress);
  bool any_failed = false;
  const nlohmann::json result = harness.run({"vector_add", "tiny", {}, {rung}, 1}, any_failed);
  EXPECT_TRUE(any_failed);
  ASSERT_EQ(result["rungs"].size(), 1u);
  EXPECT_EQ(result["rungs"][0]["status"], "failed");
  EXPECT_NE(result["rungs"][0]["reason"].get<std::string>().find(expected), std::string::npos) << result["rungs"][0];
}

}  // namespace ladder::guard_zone_checks
