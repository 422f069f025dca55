#pragma once
// The ladder program run as a user runs it, from a test: in a folder of
// the test's own, its output and exit status caught.
#include <filesystem>
#include <string>

namespace ladder::testing {

struct LadderOutcome {
  int exit_code;       // -1 when it did not exit normally
  std::string output;  // stdout and stderr together
};

// A folder of a test's own in the system's temporary folder, named for the
// test and this process: two test runs on one machine (two clones' CI,
// say) never share one, nor remove each other's.
std::filesystem::path test_folder(const std::string& name);

// `environment`: assignments for this command alone, e.g. "LADDER_MEMORY_LIMIT_MB=1".
LadderOutcome run_ladder(const std::filesystem::path& directory, const std::string& arguments,
                         const std::string& environment = "");

}  // namespace ladder::testing
