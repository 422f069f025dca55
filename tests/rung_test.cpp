#include "rung_test.hpp"

#include <algorithm>
#include <stdexcept>

#include "ladder/error.hpp"
#include "ladder/harness.hpp"

namespace ladder::testing {

void PrintTo(const RungCase& rung, std::ostream* out) { *out << rung.rung << (rung.pinned ? " (pinned)" : ""); }

std::vector<RungCase> rung_cases(const std::string& exercise) {
  std::vector<RungCase> cases;
  for (const std::string& rung : ladder_rungs(*make_problem(exercise))) {
    // The Python rungs are checked in their workers, every case, by
    // tests/test_python_rungs.sh, which also fails where one is skipped
    // for want of a package rather than of a GPU.
    if (backend_of(rung) == Backend::python) continue;
    cases.push_back({rung});
    if (backend_of(rung) == Backend::cuda) cases.push_back({rung, true});
  }
  return cases;
}

std::string rung_case_name(const ::testing::TestParamInfo<RungCase>& info) {
  return info.param.rung + (info.param.pinned ? "_pinned" : "");
}

void expect_rung_matches_reference(const std::string& exercise, const RungCase& rung,
                                   const std::vector<Params>& extra_cases, std::uint64_t seed) {
  auto problem = make_problem(exercise);
  const RungEntry* entry = find_rung(exercise, rung.rung);
  if (entry == nullptr) GTEST_SKIP() << rung.rung << " is not built in this build";
  RunOptions options;
  options.pinned = rung.pinned;
  Availability availability = backend_availability(entry->backend, options);
  if (!availability.available) GTEST_SKIP() << availability.reason;

  std::vector<Params> cases;
  for (const auto& check_case : problem->check_cases()) cases.push_back(check_case.params);
  cases.insert(cases.end(), extra_cases.begin(), extra_cases.end());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    Params params = problem->resolve("tiny", cases[i]);
    std::string where;
    for (const auto& [key, value] : params.values()) where += key + "=" + value + " ";
    SCOPED_TRACE(where);
    // Judged as `ladder check` judges it: one place decides what passes.
    const CheckResult result = check_case(*entry, *problem, params, seed + i, options);
    EXPECT_TRUE(result.ok) << result.detail;
  }
}

std::vector<std::string> failed_check_cases(const std::string& exercise, const std::string& rung,
                                            const std::string& track) {
  auto problem = make_problem(exercise);
  const RungEntry* entry = find_rung(exercise, rung, track);
  if (entry == nullptr) throw std::logic_error(rung + " of " + exercise + " is not registered in track " + track);
  std::vector<std::string> failed;
  const auto cases = problem->check_cases();
  for (std::size_t i = 0; i < cases.size(); ++i)
    if (!check_case(*entry, *problem, problem->resolve("tiny", cases[i].params), i + 1, {}).ok)
      failed.push_back(cases[i].catches);
  return failed;
}

void expect_planted_mistake_caught(const std::string& exercise, const std::string& rung, const std::string& mistake) {
  const auto cases = make_problem(exercise)->check_cases();
  ASSERT_TRUE(std::any_of(cases.begin(), cases.end(), [&](const CheckCase& check_case) {
    return check_case.catches == mistake;
  })) << "no check case of " << exercise << " catches " << mistake;
  const auto failed = failed_check_cases(exercise, rung);
  std::string list;
  for (const auto& catches : failed) list += "\n  " + (catches.empty() ? "(unnamed)" : catches);
  EXPECT_NE(std::find(failed.begin(), failed.end(), mistake), failed.end())
      << rung << " passed the case that catches " << mistake << "; the cases it failed:" << list;
}

void expect_usage_error(const std::function<void()>& action, const std::string& fragment) {
  try {
    action();
    ADD_FAILURE() << "accepted; expected an error saying: " << fragment;
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
  }
}

}  // namespace ladder::testing
