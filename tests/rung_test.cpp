#include "rung_test.hpp"

#include "ladder/error.hpp"
#include "ladder/harness.hpp"

namespace ladder::testing {

void PrintTo(const RungCase& rung, std::ostream* out) { *out << rung.rung << (rung.pinned ? " (pinned)" : ""); }

std::vector<RungCase> rung_cases(const std::string& exercise) {
  std::vector<RungCase> cases;
  for (const std::string& rung : ladder_rungs(*make_problem(exercise))) {
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

  auto cases = problem->check_cases();
  cases.insert(cases.end(), extra_cases.begin(), extra_cases.end());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    Params params = problem->resolve("tiny", cases[i]);
    std::string where;
    for (const auto& [key, value] : params.values()) where += key + "=" + value + " ";
    SCOPED_TRACE(where);
    Arrays inputs = problem->generate(params, seed + i);
    CheckResult result =
        problem->check(run_once(*entry, inputs, params, options, *problem), problem->reference(inputs, params));
    EXPECT_TRUE(result.ok) << result.detail;
  }
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
