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

// `environment`: assignments for this command alone, e.g. "LADDER_MEMORY_LIMIT_MB=1".
LadderOutcome run_ladder(const std::filesystem::path& directory, const std::string& arguments,
                         const std::string& environment = "");

}  // namespace ladder::testing
