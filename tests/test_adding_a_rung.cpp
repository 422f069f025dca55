// Adding a rung is meant to be one file and one registration line: the
// rung is then listed, checked, timed and tested with no other edit. This
// file is that file, for a test-only host rung of vector_add, and checks
// each of the five. It is built into its own test binary only: `ladder`
// must not list it. The problem's rungs() gives the ladder's order; a
// registered rung it does not name joins the ladder at the end
// (ladder_rungs), so `ladder list`, `check` and `run` and the generated rung
// tests all have it.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <sstream>

#include "ladder/harness.hpp"
#include "ladder/registry.hpp"
#include "rung_test.hpp"

namespace ladder {
namespace {

// c = a + b, read from the harness's arrays on every run: any correct rung will do.
class TestOnlySerialVectorAdd final : public HostRung {
 public:
  explicit TestOnlySerialVectorAdd(const RungContext&) {}
  void prepare(const Arrays& inputs, Arrays& outputs) override {
    inputs_ = &inputs;
    outputs_ = &outputs;
  }
  void compute() override {
    const auto a = inputs_->at("a").view<float>(), b = inputs_->at("b").view<float>();
    std::transform(a.begin(), a.end(), b.begin(), outputs_->at("c").view<float>().begin(), std::plus<>());
  }

 private:
  const Arrays* inputs_ = nullptr;
  Arrays* outputs_ = nullptr;
};

}  // namespace
LADDER_REGISTER_RUNG(vector_add, test_only_serial, TestOnlySerialVectorAdd);

namespace {

const std::string kRung = "test_only_serial";

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The ladder that `ladder list`, `check` and `run` show and the rung tests
// are instantiated from (chosen_rungs with no --variants).
bool on_the_ladder() { return contains(chosen_rungs(*make_problem("vector_add"), {}), kRung); }

TEST(AddingARungTest, IsInTheRegistry) {
  EXPECT_TRUE(contains(registered_rungs("vector_add"), kRung));
  const RungEntry* entry = find_rung("vector_add", kRung);
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->backend, Backend::host);
}

// What `ladder check` does with each rung it checks (run_once on every
// check case, compared with the reference), and what the rung tests do.
// The registration takes the backend from the rung's base class; `ladder
// list` names a rung that is not built here by its name's prefix. The two
// must agree for every rung, or a rung would be listed as skipped for the
// wrong reason.
TEST(AddingARungTest, EveryRungIsNamedForItsBaseClassesBackend) {
  for (const auto& exercise : exercise_names())
    for (const auto& track : {kSolutionsTrack, kExercisesTrack})
      for (const auto& rung : registered_rungs(exercise, track))
        EXPECT_EQ(backend_name(find_rung(exercise, rung, track)->backend), backend_name(backend_of(rung)))
            << exercise << " " << rung << " (" << track << " track)";
}

TEST(AddingARungTest, IsCheckedAndPasses) { testing::expect_rung_matches_reference("vector_add", {kRung}); }

TEST(AddingARungTest, IsOnTheLadderOfListCheckRunAndTheRungTests) {
  EXPECT_TRUE(on_the_ladder());
  const auto cases = testing::rung_cases("vector_add");
  EXPECT_TRUE(std::any_of(cases.begin(), cases.end(), [](const testing::RungCase& c) { return c.rung == kRung; }));
}

TEST(AddingARungTest, IsTimedByTheHarness) {
  EXPECT_TRUE(on_the_ladder());
  TimingPolicy policy{0.001, 3, 20, 60};
  Ceilings ceilings;
  ceilings.host_bytes_per_s = 10e9;
  std::ostringstream progress;
  Harness harness(RunOptions{}, policy, ceilings, progress);
  bool any_failed = false;
  const nlohmann::json result = harness.run({"vector_add", "tiny", {}, {kRung}, 1}, any_failed);
  EXPECT_FALSE(any_failed);
  ASSERT_EQ(result["rungs"].size(), 1u);
  EXPECT_EQ(result["rungs"][0]["rung"], kRung);
  EXPECT_EQ(result["rungs"][0]["status"], "ok") << result["rungs"][0];
  EXPECT_GT(result["rungs"][0]["timings"]["compute"]["median_s"].get<double>(), 0);
}

}  // namespace
}  // namespace ladder
