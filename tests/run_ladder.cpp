#include "run_ladder.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>

namespace ladder::testing {

std::filesystem::path test_folder(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("ladder_" + name + "_" + std::to_string(::getpid()));
}

LadderOutcome run_ladder(const std::filesystem::path& directory, const std::string& arguments,
                         const std::string& environment) {
  const std::string command =
      "cd '" + directory.string() + "' && " + environment + " '" LADDER_EXECUTABLE "' " + arguments + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed: " + command};
  std::string output;
  std::array<char, 4096> buffer;
  while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) output.append(buffer.data(), n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

}  // namespace ladder::testing
