// `ladder check EXERCISE --race`: the chosen OpenCL rungs on Oclgrind's
// simulated device, each in a child `ladder check` (check_child.cpp), and
// Oclgrind's reports read back from the child's output into one verdict
// per rung, with the kernel's file, line and source.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>

#include "bench/cli/check.hpp"
#include "ladder/error.hpp"
#include "ladder/kernels.hpp"

namespace ladder::cli {
namespace {

// One of Oclgrind's reports: a line that says what it found, then indented
// lines with the kernel, the work-item and, where it knows it, the source
// line ("At line 17 (column 9) of kernels/histogram/histogram.cl:").
struct OclgrindReport {
  std::string headline;  // "Read-write data race at local memory address 0x1000000000010"
  std::string file, line, source;
  std::string case_text;  // the check case it came in, as the child announced it
  std::string text;       // the whole report
  std::string cause() const {
    if (std::regex_search(headline, std::regex("data race", std::regex::icase))) return "race";
    if (std::regex_search(headline, std::regex("invalid|exceeds|out of bounds", std::regex::icase)))
      return "out of bounds";
    return "FAIL";
  }
  std::string where() const { return file.empty() ? "" : file + " line " + line + ": " + source; }
};

// The kernel a report names, as this program knows it, and line `line`
// (from 1) of it. Oclgrind names the file that opencl_program_source put
// in its "#line" (kernel_file), but may make it relative to a folder of its
// own compiler's (seen: the system's temporary folder), so the name is
// matched against the end of each kernel's file, whatever the current
// folder; the line is read from the source the rung was built from
// (kernel_source: the edited copy, the participant's file or the embedded
// one). Oclgrind's own copy of the line is one off: it counts the "#line".
struct KernelLine {
  std::string file, source;
};
KernelLine kernel_line(const std::string& reported, std::size_t line, const std::string& track) {
  std::filesystem::path tail;  // the reported name without its leading "./" and "../"
  for (const auto& part : std::filesystem::path(reported))
    if (!tail.empty() || (part != "." && part != "..")) tail /= part;
  for (const auto& kernel : embedded_kernels()) {
    const std::string file = kernel_file(kernel.path, track);
    const std::string whole = std::filesystem::absolute(file).lexically_normal().string(), end = tail.string();
    const bool same = whole == end || (whole.size() > end.size() &&
                                       whole.compare(whole.size() - end.size() - 1, std::string::npos, "/" + end) == 0);
    if (end.empty() || !same) continue;
    std::istringstream in(kernel_source(kernel.path, track));
    std::string text;
    for (std::size_t i = 0; i < line && std::getline(in, text);) ++i;
    const auto start = text.find_first_not_of(" \t");
    return {file, !in || start == std::string::npos ? "" : text.substr(start)};
  }
  return {reported, ""};
}

// The reports in what a child wrote to stderr, in order, each with the case
// announced before it. Reports are blocks: a headline, then tab-indented lines.
std::vector<OclgrindReport> oclgrind_reports(const std::vector<std::string>& lines, const std::string& track) {
  std::vector<OclgrindReport> reports;
  const std::regex location(R"(At line (\d+) (?:\(column \d+\) )?of (.+):\s*$)");
  std::string case_text;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind(kCaseAnnouncement, 0) == 0) {
      case_text = lines[i].substr(std::strlen(kCaseAnnouncement));
      continue;
    }
    if (lines[i].empty() || lines[i][0] == '\t' || lines[i][0] == ' ') continue;
    if (i + 1 >= lines.size() || lines[i + 1].empty() || lines[i + 1][0] != '\t') continue;
    OclgrindReport report{lines[i], "", "", "", case_text, lines[i] + '\n'};
    std::string source;  // of the last location, to print in place of Oclgrind's line after it
    for (++i; i < lines.size() && !lines[i].empty() && lines[i][0] == '\t'; ++i) {
      std::smatch match;
      if (!source.empty()) {
        report.text += "\t  " + source + '\n';
        source.clear();
        continue;
      }
      report.text += lines[i] + '\n';
      if (std::regex_search(lines[i], match, location)) {
        const KernelLine found = kernel_line(match[2], std::stoul(match[1]), track);
        source = found.source;
        if (report.file.empty()) report.line = match[1], report.file = found.file, report.source = source;
      }
    }
    --i;
    reports.push_back(std::move(report));
  }
  return reports;
}

}  // namespace

// `ladder check EXERCISE --race`: each chosen OpenCL rung of the track, on
// the problem's small simulator_cases(), in its own `ladder check` under
// Oclgrind (Debian's `oclgrind`), which simulates an OpenCL device,
// follows every work-item and reports two of them touching one address
// with no barrier or atomic between, reads and writes outside a buffer or
// an array, reads of values never written, and barriers not reached by the
// whole group. Nothing is timed. One verdict per rung: race, out of bounds,
// FAIL (a wrong value, or another report) or pass; each distinct report is
// printed once below the verdicts.
constexpr std::size_t kOclgrindMaxErrors = 20;  // reports, after which Oclgrind says no more

int check_for_races(const Arguments& args) {
  if (std::system("command -v oclgrind > /dev/null 2>&1") != 0)
    throw UsageError(
        "--race runs the OpenCL rungs on Oclgrind, which is not installed (Debian: apt-get install oclgrind)");
  const std::string track = checked_track(args);
  auto problem = make_problem(args.positional[0]);
  // Handed in as `ladder check` hands in: a race is a verdict on the board.
  std::string cannot_hand_in;
  const std::optional<ClassFolder> class_folder_to = class_folder(args, track, cannot_hand_in);
  if (class_folder_to && !cannot_hand_in.empty())
    std::cerr << "ladder: not handing in: " << cannot_hand_in << "; your results are printed here as always\n";
  std::vector<std::string> rungs;
  for (const auto& rung : chosen_rungs(*problem, split_list(args.value("--variants"))))
    if (backend_of(rung) == Backend::opencl) rungs.push_back(rung);
  if (rungs.empty()) throw UsageError("--race checks OpenCL rungs, and none is chosen in " + problem->name());
  const auto cases = problem->simulator_cases();
  // Said, not silently dropped: the simulator runs its own small cases.
  if (args.flag("--size"))
    std::cerr << "ladder: --size is not used with --race: Oclgrind runs " << problem->name()
              << "'s own small cases, chosen to reach every path of its kernels\n";
  std::cout << problem->name() << ", " << track << " track"
            << (track == kExercisesTrack ? " (exercises/" + problem->name() + ")" : "") << ", on Oclgrind ("
            << cases.size() << " small cases; nothing timed):\n"
            << "PoCL runs a work-group's work-items one after another, so it cannot show a missing\n"
            << "atomic or barrier within a work-group; Oclgrind follows every work-item.\n"
            << std::flush;

  const ScratchFolder scratch;
  std::map<std::string, CheckVerdict> verdicts;
  std::map<std::string, std::vector<OclgrindReport>> distinct_reports;  // per rung, each (cause, place) once
  std::map<CheckVerdict::Kind, int> counts;
  for (const auto& rung : rungs) {
    // Oclgrind's check for uninitialised values stops at LLVM's `freeze`
    // instruction (Oclgrind 21.10: "Unsupported instruction: freeze"), which
    // the optimiser puts into many kernels; without optimisation the
    // simulation is up to 100 times slower. Such a kernel is checked again
    // without it, and the line says so.
    bool uninitialised_checked = true;
    ChildCheck child;
    for (bool with_uninitialised : {true, false}) {
      // 64 KiB of local memory, as on most GPUs (Oclgrind's own default, 32
      // KiB, is less than spot_finding's widest window needs).
      const std::string oclgrind = "oclgrind --data-races --check-api --max-errors " +
                                   std::to_string(kOclgrindMaxErrors) + " --local-mem-size 65536 " +
                                   (with_uninitialised ? "--uninitialized " : "");
      child = check_in_child(args, problem->name(), rung, track, oclgrind, true, scratch.path);
      const bool unsupported = std::any_of(child.lines.begin(), child.lines.end(), [](const std::string& line) {
        return line.find("Unsupported instruction") != std::string::npos;
      });
      if (!with_uninitialised || !unsupported) break;
      uninitialised_checked = false;
    }
    const auto reports = oclgrind_reports(child.lines, track);
    CheckVerdict verdict = child.verdict ? *child.verdict : child.crash_verdict("under Oclgrind");
    if (!reports.empty()) {
      // The verdict is the first report's: its cause, where, and in which case.
      const OclgrindReport& first = reports.front();
      std::string text = first.cause() + ": " + (first.file.empty() ? first.headline : first.where()) + " (" +
                         (first.file.empty() ? "" : first.headline + "; ") + "case " + first.case_text + "; " +
                         std::to_string(reports.size()) + (reports.size() >= kOclgrindMaxErrors ? " or more" : "") +
                         " report(s) from Oclgrind; each place once below)";
      if (verdict.kind == CheckVerdict::fail) text += "; the values: " + verdict.text;
      verdict = {CheckVerdict::fail, text};
      // Oclgrind reports a race once per pair of work-items: each cause and place once.
      std::set<std::string> seen;
      for (const auto& report : reports)
        if (seen.insert(report.cause() + " " + report.file + ":" + report.line).second)
          distinct_reports[rung].push_back(report);
    }
    if (!uninitialised_checked)
      verdict.text +=
          " [reads of uninitialised values not checked: Oclgrind cannot follow this kernel's optimised code]";
    ++counts[verdict.kind];
    verdicts[rung] = verdict;
  }

  for (const auto& rung : rungs) std::cout << "  " << std::left << std::setw(16) << rung << verdicts[rung].text << '\n';
  for (const auto& [rung, reports] : distinct_reports) {
    std::cout << "Oclgrind's reports for " << rung << ":\n";
    for (const auto& report : reports) std::cout << "in case " << report.case_text << ":\n" << report.text << '\n';
  }
  const int status = print_summary(counts);
  if (class_folder_to && cannot_hand_in.empty())
    hand_in_check(*class_folder_to, args, *problem, "", rungs, verdicts, true);
  return status;
}

}  // namespace ladder::cli
