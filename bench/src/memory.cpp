#include "ladder/memory.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "ladder/error.hpp"

namespace ladder {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// MemAvailable (kB) from /proc/meminfo: what the kernel can hand out
// without swapping, page cache included. 0 where it cannot be read.
double available_from_meminfo() {
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    std::istringstream fields(line);
    std::string key;
    double kilobytes = 0;
    if (fields >> key >> kilobytes && key == "MemAvailable:") return kilobytes * 1024;
  }
  return 0;
}

}  // namespace

MemoryLimit host_memory_limit() {
  if (const char* text = std::getenv("LADDER_MEMORY_LIMIT_MB"); text != nullptr && *text != '\0') {
    char* end = nullptr;
    const double megabytes = std::strtod(text, &end);
    if (*end != '\0' || !(megabytes > 0) || !std::isfinite(megabytes))
      throw UsageError(std::string("LADDER_MEMORY_LIMIT_MB=") + text + ": expected a positive number of MiB");
    return {megabytes * kMiB, true};
  }
  if (double available = available_from_meminfo(); available > 0) return {available, false};
  // No /proc (not Linux): the physical memory, an upper bound on what is free.
  return {static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGESIZE)), false};
}

std::string format_bytes(double bytes) {
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(static_cast<long long>(bytes)) + " bytes";
  int unit = -1;
  while (bytes >= 1024 && unit + 1 < static_cast<int>(std::size(units))) bytes /= 1024, ++unit;
  char text[48];
  std::snprintf(text, sizeof text, "%.1f %s", bytes, units[unit]);
  return text;
}

void refuse_unless_memory_suffices(double needed, const MemoryLimit& limit, const std::string& what,
                                   const std::string& advice) {
  if (needed <= limit.bytes) return;
  const std::string has = limit.from_environment
                              ? std::string("LADDER_MEMORY_LIMIT_MB=") + std::getenv("LADDER_MEMORY_LIMIT_MB") +
                                    " leaves " + format_bytes(limit.bytes) + " available"
                              : "this machine has " + format_bytes(limit.bytes) +
                                    " available (LADDER_MEMORY_LIMIT_MB to change the limit)";
  throw UsageError(what + " needs about " + format_bytes(needed) + " of host memory; " + has + "; " + advice);
}

}  // namespace ladder
