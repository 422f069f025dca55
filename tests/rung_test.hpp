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

// The track of the rungs each exercise's tests plant a classic mistake in
// (LADDER_REGISTER_RUNG_IN_TRACK): neither `ladder` nor the rung tests see it.
inline const std::string kPlantedTrack = "planted";

// What each check case of `exercise` that `rung` of `track` fails catches
// (CheckCase::catches), every case run as `ladder check` runs it (case i
// with seed i + 1, check_case).
std::vector<std::string> failed_check_cases(const std::string& exercise, const std::string& rung,
                                            const std::string& track = kPlantedTrack);

// `rung` (of the planted track) fails the check case of `exercise` whose
// `catches` is `mistake`, which must be one of its check cases.
void expect_planted_mistake_caught(const std::string& exercise, const std::string& rung, const std::string& mistake);

// A planted mistake: Type (a rung with one classic mistake, usually derived
// from the given naive rung) registered as `rung` of `exercise` in the
// planted track, and the test that the check case whose `catches` is
// `mistake` fails it.
#define LADDER_PLANTED_MISTAKE(exercise, rung, Type, mistake)                            \
  LADDER_REGISTER_RUNG_IN_TRACK(::ladder::testing::kPlantedTrack, exercise, rung, Type); \
  TEST(PlantedMistake, exercise##_##rung) {                                              \
    ::ladder::testing::expect_planted_mistake_caught(#exercise, #rung, mistake);         \
  }

// `action` throws a UsageError whose message holds `fragment`.
void expect_usage_error(const std::function<void()>& action, const std::string& fragment);

}  // namespace ladder::testing
