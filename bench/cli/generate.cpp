// `ladder generate EXERCISE --out DIR`: a generated case written out as
// .npy files, all or nothing.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>

#include "bench/cli/cli.hpp"
#include "ladder/error.hpp"
#include "ladder/npy.hpp"

namespace ladder::cli {

// The inputs a run would time, and the reference outputs, as .npy files:
// for peers (NumPy, CuPy) timed on the same bytes, and for participants.
int command_generate(const Arguments& args) {
  if (args.positional.size() != 1)
    throw UsageError("`ladder generate` takes one exercise, e.g. `ladder generate vector_add`");
  std::string directory = args.value("--out");
  if (directory.empty()) throw UsageError("`ladder generate` needs --out DIRECTORY");
  auto problem = make_problem(args.positional[0]);
  Params params = problem->resolve(args.value("--size", "workshop"), parameter_overrides(args));
  std::uint64_t seed = args.flag("--seed") ? parse_integer("--seed", args.value("--seed"), 0, 1L << 62) : 1;
  refuse_unless_memory_suffices(*problem, params, host_memory_limit());
  Arrays inputs = problem->generate(params, seed);
  Arrays expected = problem->reference(inputs, params);
  // All or nothing: the files are written into a sibling folder, then moved
  // into place (the folder renamed, where DIRECTORY is new or empty).
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::exists(directory, error) && !fs::is_directory(directory, error))
    throw UsageError(directory + ": exists and is not a directory");
  fs::path target = fs::path(directory).lexically_normal();
  if (target.filename().empty()) target = target.parent_path();  // "out/" names "out"
  const fs::path staging = target.string() + ".tmp" + std::to_string(::getpid());
  // Each path is registered for removal on SIGINT or SIGTERM before it is
  // made, so that no moment leaves one behind unregistered.
  TemporaryPath cleanup_folder(staging.string());
  fs::create_directories(staging, error);
  if (error) throw UsageError(directory + ": cannot create a folder beside it (" + error.message() + ")");
  std::vector<std::string> names;
  std::vector<std::unique_ptr<TemporaryPath>> cleanup_files;  // each written file, until it is moved
  auto write = [&](const std::string& name, const auto& save) {
    names.push_back(name);
    cleanup_files.push_back(std::make_unique<TemporaryPath>((staging / name).string()));
    save((staging / name).string());
  };
  try {
    for (const auto& [name, array] : inputs)
      write(name + ".npy", [&](const std::string& path) { write_npy(path, array); });
    for (const auto& [name, array] : expected)
      write("expected_" + name + ".npy", [&](const std::string& path) { write_npy(path, array); });
    nlohmann::ordered_json about = {{"exercise", problem->name()},
                                    {"size", args.value("--size", "workshop")},
                                    {"parameters", params.values()},
                                    {"seed", seed}};
    write("inputs.json", [&](const std::string& path) { write_file_atomically(path, about.dump(2) + "\n"); });
    if (!fs::exists(target, error) || fs::is_empty(target, error)) {
      fs::remove(target, error);
      fs::rename(staging, target);
    } else {
      for (const auto& name : names) refuse_unless_replaceable((target / name).string());
      for (const auto& name : names) fs::rename(staging / name, target / name);
      fs::remove(staging);
    }
  } catch (const fs::filesystem_error& failure) {
    fs::remove_all(staging, error);
    throw UsageError(directory + ": cannot write (" + failure.code().message() + ")");
  } catch (...) {
    fs::remove_all(staging, error);
    throw;
  }
  std::cout << "wrote " << inputs.size() << " input(s) and " << expected.size() << " expected output(s) to "
            << directory << '\n';
  return 0;
}

}  // namespace ladder::cli
