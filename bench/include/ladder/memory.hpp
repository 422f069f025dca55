#pragma once
// The memory check that every command makes before it allocates a case:
// the problem predicts the host bytes (Problem::host_bytes), and a case
// that needs more than this machine has is refused with one message and
// exit status 2, instead of failing half-way or being killed by the kernel.
#include <string>

namespace ladder {

// How much host memory a case may use, and where the figure came from.
struct MemoryLimit {
  double bytes = 0;
  bool from_environment = false;  // LADDER_MEMORY_LIMIT_MB was set
};

// LADDER_MEMORY_LIMIT_MB where set (UsageError if it is not a positive
// number); else MemAvailable from /proc/meminfo; else the physical memory
// (sysconf), where /proc is not there.
MemoryLimit host_memory_limit();

// "24.0 GiB", "512.0 MiB", "3.0 KiB", "17 bytes".
std::string format_bytes(double bytes);

// Throws UsageError naming both figures when `needed` exceeds the limit:
// "<what> needs about 24.0 GiB of host memory; this machine has 7.5 GiB
// available (LADDER_MEMORY_LIMIT_MB to change the limit); <advice>".
void refuse_unless_memory_suffices(double needed, const MemoryLimit& limit, const std::string& what,
                                   const std::string& advice);

}  // namespace ladder
