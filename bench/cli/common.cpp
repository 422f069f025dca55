// The helpers the commands share (cli.hpp): reading numbers, lists, the
// device and thread options, --param and --track, and the memory check.
#include <unistd.h>

#include <cstdlib>
#include <sstream>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "bench/cli/cli.hpp"
#include "ladder/python.hpp"
#include "ladder/backends.hpp"
#include "ladder/error.hpp"

namespace ladder::cli {
namespace {

// "vector_add at n=1000003", for messages about one case.
std::string case_text(const Problem& problem, const Params& params) {
  std::string text = problem.name() + " at";
  const char* separator = " ";
  for (const auto& [key, value] : params.values()) text += separator + key + "=" + value, separator = ", ";
  return text;
}

}  // namespace

long parse_integer(const std::string& option, const std::string& text, long min, long max) {
  char* end = nullptr;
  long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value < min || value > max)
    throw UsageError(option + " " + text + ": expected an integer from " + std::to_string(min) + " to " +
                     std::to_string(max));
  return value;
}

double parse_positive(const std::string& option, const std::string& text) {
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(value > 0))
    throw UsageError(option + " " + text + ": expected a positive number");
  return value;
}

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream folders(path ? path : "");
  for (std::string folder; std::getline(folders, folder, ':');)
    if (!folder.empty() && ::access((folder + "/" + program).c_str(), X_OK) == 0) return true;
  return false;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) items.push_back(item);
  return items;
}

RunOptions run_options(const Arguments& args) {
  RunOptions options;
  options.pinned = args.flag("--pinned");
  options.warm = args.flag("--warm");
  options.evict_by_writing = args.flag("--evict-by-writing");
  if (options.warm && options.evict_by_writing)
    throw UsageError("--warm and --evict-by-writing: --warm evicts nothing, so there is nothing to write");
  if (args.flag("--threads")) options.threads = parse_integer("--threads", args.value("--threads"), 1, 4096);
  if (args.flag("--cuda-device"))
    options.cuda_device = parse_integer("--cuda-device", args.value("--cuda-device"), 0, 1024);
  options.opencl_device = args.value("--opencl-device");
  if (args.flag("--hang-limit")) {
    set_mpi_hang_limit(parse_positive("--hang-limit", args.value("--hang-limit")));
    set_python_hang_limit(parse_positive("--hang-limit", args.value("--hang-limit")));
  }
#ifdef _OPENMP
  if (options.threads > 0) omp_set_num_threads(options.threads);
#endif
  return options;
}

Params parameter_overrides(const Arguments& args) {
  Params overrides;
  for (const auto& text : args.values("--param")) {
    auto [key, value] = split_assignment(text, "--param");
    overrides.set(key, value);
  }
  return overrides;
}

std::string checked_track(const Arguments& args) {
  std::string track = args.value("--track", kSolutionsTrack);
  if (track != kSolutionsTrack && track != kExercisesTrack)
    throw UsageError("--track " + track + ": accepted: solutions, exercises");
  return track;
}

void refuse_unless_memory_suffices(const Problem& problem, const Params& params, const MemoryLimit& limit) {
  refuse_unless_memory_suffices(problem.host_bytes(problem.input_shapes(params), params), limit,
                                case_text(problem, params), "try a smaller --size or --param");
}

}  // namespace ladder::cli
