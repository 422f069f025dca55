#include <chrono>
#include <fstream>
#include <string>

#include "ladder/rung.hpp"

namespace ladder {

double HostRung::timed_compute() {
  auto start = std::chrono::steady_clock::now();
  compute();
  auto stop = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(stop - start).count();
}

std::string host_cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown CPU";
}

std::string HostRung::device_name() const { return host_cpu_model(); }

}  // namespace ladder
