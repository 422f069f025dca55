#pragma once
// Shared by every exercise's tests: run one rung on the problem's check
// cases (plus any extra ones) and expect the reference's output exactly.
// A rung that is not built, or whose backend cannot run here, is skipped
// with the reason, never passed.
#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "ladder/params.hpp"

namespace ladder::testing {

struct RungCase {
  std::string rung;
  bool pinned = false;  // CUDA rungs: page-locked host buffers
};
void PrintTo(const RungCase& rung, std::ostream* out);

// Every rung the exercise's problem lists, in ladder order, and each CUDA
// rung a second time with pinned host buffers: a suite instantiated from
// this tests a new rung as soon as the problem lists it.
std::vector<RungCase> rung_cases(const std::string& exercise);
std::string rung_case_name(const ::testing::TestParamInfo<RungCase>& info);

// Every check case of `exercise` (resolved against its tiny size) and each
// of `extra_cases`, generated with seeds from `seed` up.
void expect_rung_matches_reference(const std::string& exercise, const RungCase& rung,
                                   const std::vector<Params>& extra_cases = {}, std::uint64_t seed = 100);

// `action` throws a UsageError whose message holds `fragment`.
void expect_usage_error(const std::function<void()>& action, const std::string& fragment);

}  // namespace ladder::testing
