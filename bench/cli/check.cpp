// `ladder check EXERCISE`: correctness only, every chosen rung on the
// problem's check cases, one verdict line per rung; with --track exercises
// the participant's rungs, each passing one timed beside the solution's.
// The OpenCL and openmp_target rungs are checked in child processes (check_child.cpp), and
// --race hands over to check_race.cpp.
#include "bench/cli/check.hpp"

#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "bench/cli/hand_in.hpp"
#include "ladder/backends.hpp"
#include "ladder/error.hpp"

namespace ladder::cli {
namespace {

constexpr double kCheckCaseBudget = 10;  // seconds a rung may be predicted to take on one check case

// Median compute time of each rung that ran, from a quick run of the harness.
std::map<std::string, double> quick_times(const std::string& exercise, const std::string& size,
                                          const std::vector<std::string>& rungs, const std::string& track,
                                          const RunOptions& options) {
  TimingPolicy policy;
  policy.min_time = 0.05;
  policy.min_repetitions = 3;
  policy.time_budget = kCheckCaseBudget;
  std::ostringstream quiet;
  Harness harness(options, policy, Ceilings{}, quiet);
  bool failed = false;
  RunRequest request{exercise, size, {}, rungs, 1, 0, track};
  nlohmann::json result = harness.run(request, failed);
  std::map<std::string, double> times;
  for (const auto& row : result["rungs"])
    if (row["status"] == "ok") times[row["rung"]] = row["timings"]["compute"]["median_s"].get<double>();
  return times;
}

// A rung run on every check case (each with its own seed, i + 1) until the
// first failure, compared with the reference (check_case); a FAIL names the
// case, the mistake it catches and the first mismatch. With `announce`,
// each case is named on stderr first; `simulated` (under Oclgrind), each is
// computed once, not twice.
CheckVerdict check_rung(const Problem& problem, const std::string& rung, const std::string& track,
                        const std::vector<CheckCase>& cases, const RunOptions& options, bool announce, bool simulated) {
  const RungEntry* entry = find_rung(problem.name(), rung, track);
  if (const std::string not_loaded = track_not_loaded(track);
      !entry && !not_loaded.empty() && backend_of(rung) != Backend::python)
    return {CheckVerdict::skipped, "skipped (" + not_loaded + ")"};
  // A solution's extra rung (cuda_fft, opencl_trial, ...) is not part of the exercise.
  if (!entry && track == kExercisesTrack && find_rung(problem.name(), rung, kSolutionsTrack))
    return {CheckVerdict::no_skeleton, "no skeleton (a solution rung only, not part of the exercise)"};
  const Availability availability = rung_availability(problem.name(), rung, track, options);
  if (!availability.available) return {CheckVerdict::skipped, "skipped (" + availability.reason + ")"};

  std::size_t skipped_cases = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    Params params = problem.resolve("tiny", cases[i].params);
    // A check is quick: a case this rung would take long on (naive primes
    // at 10^7) is left out, and the line says so.
    if (auto prediction = problem.predict(rung, params); prediction && prediction->seconds > kCheckCaseBudget) {
      ++skipped_cases;
      continue;
    }
    // The case and its seed, and the run that shows the same input again.
    std::string where, again;
    for (const auto& [key, value] : params.values())
      where += " " + key + "=" + value, again += " --param " + key + "=" + value;
    const std::string seed = std::to_string(i + 1);
    const std::string catches = cases[i].catches.empty() ? "" : " (catches: " + cases[i].catches + ")";
    if (announce) std::cerr << kCaseAnnouncement << where.substr(1) << " seed=" << seed << catches << std::endl;
    set_mpi_case(where.substr(1) + " seed=" + seed + catches);  // what a verdict names where an MPI job goes wrong
    std::string failure;
    try {
      CheckResult result = check_case(*entry, problem, params, i + 1, options, simulated ? 1 : 2);
      if (!result.ok) failure = result.detail;
    } catch (const NotImplemented& error) {
      return {CheckVerdict::not_implemented, "not implemented (" + std::string(error.what()) + ")"};
    }
    if (!failure.empty())
      return {CheckVerdict::fail, "FAIL case" + where + " seed=" + seed + catches + ": " + failure +
                                      " (again: ladder run " +
                                      problem.name() + " --variants " + rung +
                                      (track == kExercisesTrack ? " --track exercises" : "") + again + " --seed " +
                                      seed + ")"};
  }
  std::string text = "pass (" + std::to_string(cases.size() - skipped_cases) + " inputs";
  if (skipped_cases > 0)
    text += "; " + std::to_string(skipped_cases) + " left out, predicted over " +
            std::to_string(static_cast<int>(kCheckCaseBudget)) + " s each";
  return {CheckVerdict::pass, text + ")"};
}

// The participant's passing rungs, timed beside the solution's. naive is
// given (bench/problems/<exercise>/given/naive.cpp, the same file in both tracks): timing
// it twice at the workshop size would only make every check slow.
void add_exercise_times(const Problem& problem, const std::string& size, std::vector<std::string> passing,
                        const RunOptions& options, std::map<std::string, CheckVerdict>& verdicts) {
  if (auto given = std::find(passing.begin(), passing.end(), "naive"); given != passing.end()) {
    verdicts["naive"].text += "; given, the solutions' own file (`ladder run` times it)";
    passing.erase(given);
  }
  if (passing.empty()) return;
  std::cerr << "timing the passing rungs at size " << size << "...\n";
  auto mine = quick_times(problem.name(), size, passing, kExercisesTrack, options);
  std::vector<std::string> solved;
  for (const auto& rung : passing)
    if (find_rung(problem.name(), rung, kSolutionsTrack)) solved.push_back(rung);
  auto theirs = quick_times(problem.name(), size, solved, kSolutionsTrack, options);
  for (const auto& rung : passing) {
    std::string& text = verdicts[rung].text;
    auto time = mine.find(rung);
    if (time == mine.end()) {
      text += "; not timed at size " + size + " (see `ladder run --track exercises`)";
      continue;
    }
    text += "; " + size + ": " + format_time(time->second);
    verdicts[rung].seconds = time->second;
    if (auto solution = theirs.find(rung); solution != theirs.end()) {
      text += " (solution: " + format_time(solution->second) + ")";
      verdicts[rung].solution_seconds = solution->second;
    }
  }
}

}  // namespace

void hand_in_check(const ClassFolder& to, const Arguments& args, const Problem& problem, const std::string& size,
                   const std::vector<std::string>& rungs, const std::map<std::string, CheckVerdict>& verdicts,
                   bool on_oclgrind) {
  static const std::map<CheckVerdict::Kind, std::string> kinds = {{CheckVerdict::pass, "pass"},
                                                                  {CheckVerdict::fail, "fail"},
                                                                  {CheckVerdict::not_implemented, "not_implemented"},
                                                                  {CheckVerdict::skipped, "skipped"},
                                                                  {CheckVerdict::no_skeleton, "no_skeleton"}};
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& rung : rungs) {
    const CheckVerdict& verdict = verdicts.at(rung);
    nlohmann::json row = {{"rung", rung}, {"verdict", kinds.at(verdict.kind)}, {"text", verdict.text},
                          {"sources", rung_sources(problem.name(), rung)}};
    if (verdict.seconds) row["compute_s"] = *verdict.seconds;
    if (verdict.solution_seconds) row["solution_compute_s"] = *verdict.solution_seconds;
    rows.push_back(row);
  }
  // A race check (on Oclgrind, small cases, nothing timed) is a command of its own.
  const std::string command = on_oclgrind ? "race-check" : "check";
  nlohmann::json result = {{"kind", "ladder-hand-in"},  {"version", 1},   {"command", command},
                           {"exercise", problem.name()}, {"track", kExercisesTrack}, {"timed_size", size},
                           {"context", hand_in_context(to, args)}, {"rungs", rows}};
  if (on_oclgrind) result.erase("timed_size");
  try {
    std::cout << "handed in: " << hand_in(to, problem.name(), command, result).string() << '\n';
  } catch (const std::exception& error) {
    std::cerr << "ladder: not handed in: " << error.what() << "; your results are printed above as always\n";
  }
}

// The check's last line; its exit status: 1 where a rung failed.
int print_summary(std::map<CheckVerdict::Kind, int> counts) {
  const int no_skeleton = counts[CheckVerdict::no_skeleton];
  std::cout << counts[CheckVerdict::pass] << " passed, " << counts[CheckVerdict::fail] << " failed, "
            << counts[CheckVerdict::not_implemented] << " not implemented, " << counts[CheckVerdict::skipped]
            << " skipped" << (no_skeleton ? ", " + std::to_string(no_skeleton) + " without skeleton" : "") << '\n';
  return counts[CheckVerdict::fail] ? 1 : 0;
}

// Correctness of every rung on the problem's check cases; with --track
// exercises, the participant's rungs, and for each that passes its time
// next to the solution's on this machine; with --race, check_for_races.
// Each OpenCL and openmp_target rung is checked in a child process
// (check_in_child), so that a kernel that crashes it is still reported as
// that rung's FAIL.
int command_check(const Arguments& args) {
  if (args.positional.size() != 1)
    throw UsageError("`ladder check` takes one exercise, e.g. `ladder check vector_add`");
  if (args.flag("--race")) return check_for_races(args);
  const std::string track = checked_track(args);
  const RunOptions options = run_options(args);
  auto problem = make_problem(args.positional[0]);
  // Handed in to a class folder where one is named: said now if it cannot be.
  std::string cannot_hand_in;
  const std::optional<ClassFolder> class_folder_to = class_folder(args, track, cannot_hand_in);
  if (class_folder_to && !cannot_hand_in.empty() && std::getenv(kCheckVerdict) == nullptr)
    std::cerr << "ladder: not handing in: " << cannot_hand_in << "; your results are printed here as always\n";
  const std::string size = args.value("--size", "workshop");
  const Params timed_params = problem->resolve(size, {});
  const auto rungs = chosen_rungs(*problem, split_list(args.value("--variants")));
  // A child of check_in_child: one rung, untimed, its verdict to a file;
  // under Oclgrind, on the problem's small cases.
  const char* verdict_file = std::getenv(kCheckVerdict);
  const bool child = verdict_file != nullptr && *verdict_file != '\0';
  const bool simulated = child && std::getenv(kSimulatedCheck) != nullptr;
  std::vector<CheckCase> cases;  // the simulator's are small and unnamed
  if (simulated)
    for (auto& params : problem->simulator_cases()) cases.push_back({std::move(params), ""});
  else
    cases = problem->check_cases();
  // Every case, and the size the exercises track times, must fit before any work.
  const MemoryLimit memory_limit = host_memory_limit();
  for (const auto& check_case : cases)
    refuse_unless_memory_suffices(*problem, problem->resolve("tiny", check_case.params), memory_limit);
  const bool timed = track == kExercisesTrack && !child;
  if (timed) refuse_unless_memory_suffices(*problem, timed_params, memory_limit);
  // The MPI rungs (mpi, cuda_nccl): each in a job of its own, of --ranks
  // ranks (1 without it), watched, so that an MPI error, a hang or a rank
  // that dies is that rung's verdict. Under a launcher of the user's own,
  // or without mpirun, in this process as any rung.
  const int ranks = args.flag("--ranks") ? ranks_from_text(args.value("--ranks")) : 1;
  if (args.flag("--ranks") && launched_by_mpirun())
    throw UsageError("--ranks starts mpirun itself: use it without mpirun, or mpirun without it");
  const bool jobs = !child && !launched_by_mpirun() && mpi_availability().available && on_path("mpirun");
  if (args.flag("--ranks") && !jobs && !child)
    throw UsageError("--ranks: " + (mpi_availability().available ? std::string("mpirun is not on the PATH (Debian: apt-get install openmpi-bin)")
                                                                 : mpi_availability().reason));
  auto in_mpi_job = [&](const std::string& rung) {
    return jobs && shares_work_among_ranks(rung) && rung_availability(problem->name(), rung, track, options).available;
  };
  if (!child)  // (a child's words are its verdict file)
    std::cout << problem->name() << ", " << track << " track"
              << (track == kExercisesTrack ? " (exercises/" + problem->name() + ")" : "")
              << (args.flag("--ranks") ? ", MPI rungs on " + std::to_string(ranks) + " rank" + (ranks == 1 ? "" : "s") : "")
              << ":\n"
              << std::flush;

  std::map<std::string, CheckVerdict> verdicts;
  std::map<CheckVerdict::Kind, int> counts;
  std::vector<std::string> passing;
  const std::optional<ScratchFolder> scratch = child ? std::nullopt : std::make_optional<ScratchFolder>();
  for (const auto& rung : rungs) {
    CheckVerdict& verdict = verdicts[rung];
    if (child) {
      verdict = check_rung(*problem, rung, track, cases, options, true, simulated);
      // An MPI rung's job times the rung itself where it passes (check_in_mpi_job).
      if (const char* timed_size = std::getenv(kCheckTimedSize); timed_size && verdict.kind == CheckVerdict::pass) {
        std::map<std::string, CheckVerdict> one = {{rung, verdict}};
        add_exercise_times(*problem, timed_size, {rung}, options, one);
        verdict = one[rung];
      }
      write_verdict(verdict_file, verdict);
    } else if (in_mpi_job(rung)) {
      verdict = check_in_mpi_job(args, problem->name(), rung, track, ranks, timed ? size : "", scratch->path);
      if (verdict.kind == CheckVerdict::pass) {
        ++counts[verdict.kind];
        continue;  // timed in its job already
      }
    } else if (backend_of(rung) == Backend::opencl || backend_of(rung) == Backend::openmp_target) {
      // In a child of its own: a kernel that writes past its buffers can
      // corrupt PoCL's heap and abort the process, a target region that
      // reads past what is mapped can crash it, and this one reports it.
      const ChildCheck result = check_in_child(args, problem->name(), rung, track, "", false, scratch->path);
      verdict = result.verdict ? *result.verdict : result.crash_verdict("of " + rung);
    } else {
      verdict = check_rung(*problem, rung, track, cases, options, false, false);
    }
    ++counts[verdict.kind];
    if (verdict.kind == CheckVerdict::pass) passing.push_back(rung);
  }
  if (child) return 0;
  if (timed) add_exercise_times(*problem, size, passing, options, verdicts);

  std::size_t width = 15;  // the rungs' names in a column, a space after the longest
  for (const auto& rung : rungs) width = std::max(width, rung.size());
  for (const auto& rung : rungs)
    std::cout << "  " << std::left << std::setw(static_cast<int>(width) + 1) << rung << verdicts[rung].text << '\n';
  const int status = print_summary(counts);
  if (class_folder_to && cannot_hand_in.empty()) hand_in_check(*class_folder_to, args, *problem, size, rungs, verdicts);
  return status;
}

}  // namespace ladder::cli
