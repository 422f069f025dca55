#pragma once
// A participant's results handed in to a class folder, for the instructor's
// board (issue 72): `ladder check --track exercises --class-folder DIR` (or
// LADDER_CLASS_FOLDER) writes one JSON file per participant and command into
// DIR/<participant>/. What is in it and why: docs/usage.md, "For instructors".
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/cli/cli.hpp"

namespace ladder::cli {

// Where a participant hands in, and as whom. The folder is the instructor's
// (it must exist); the participant's own subfolder is made on first use.
struct ClassFolder {
  std::filesystem::path folder;  // DIR/<participant>
  std::string participant;       // --name, LADDER_PARTICIPANT, or the user's login name
};

// From --class-folder / LADDER_CLASS_FOLDER and --name / LADDER_PARTICIPANT:
// nullopt where no class folder is named. A name that is not a plain word
// (letters, digits, . _ -) or a folder named for the solutions track is a
// UsageError. A folder that cannot be written is no error: the message says
// why (`why_not`), and the participant's own results are printed as ever.
std::optional<ClassFolder> class_folder(const Arguments& args, const std::string& track, std::string& why_not);

// SHA-256 of a file's bytes, in hex (what `sha256sum FILE` prints first).
std::string sha256_of_file(const std::filesystem::path& path);

// The checksums of an exercise's files that a rung is made of, as they are
// now on disk: <exercise>/<rung>.* and every file under <exercise>/kernels/.
nlohmann::json rung_sources(const std::string& exercise, const std::string& rung);

// Who, where and when, for a handed-in file: the participant, the user,
// the host, its CPU and GPUs, the suite's revision, the time (UTC).
nlohmann::json hand_in_context(const ClassFolder& to, const Arguments& args);

// Writes `result` as <exercise>-<command>-<time>-<host>-<pid>.json in the
// participant's folder: written whole under another name, then linked into
// place, so that no reader sees half a file and no file is overwritten.
// Returns the path, or throws a ladder::Error saying why not.
std::filesystem::path hand_in(const ClassFolder& to, const std::string& exercise, const std::string& command,
                              const nlohmann::json& result);

}  // namespace ladder::cli
