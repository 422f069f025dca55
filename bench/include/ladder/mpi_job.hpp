#pragma once
// An MPI job that ends in a verdict: `ladder ... --ranks N` runs the command
// as N ranks under mpirun and watches it (bench/mpi/mpi_job.cpp) through
// the job's board (ladder/job_board.hpp):
//   - the ranks' output passes through, and the launcher's own (its help
//     texts, "Primary job terminated normally, but ...") does not;
//   - a rank that failed (an MPI error: the participant's own calls too, or
//     an exception) has put its failure on the board before stopping the job;
//   - a step that some rank has not finished within its limit is a hang:
//     the job is stopped, every process of it ended;
//   - a rank that died is named, with its signal and the step it was in.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ladder/job_board.hpp"

namespace ladder {

struct MpiJob {
  int status = 0;                      // the job's exit status (mpirun's)
  std::optional<JobProblem> problem;   // what went wrong, where the job says
  std::string rung, case_text;         // where it went wrong, from the board
  std::vector<std::string> output;     // the ranks' lines, where not passed through
  // "FAIL: convolution's mpi rung on case ...: <problem>": one line for a run.
  std::string describe() const;
};

// `ladder ARGS` as `ranks` MPI ranks under mpirun, with `environment` set
// for every rank. With `pass_output` the ranks' output goes to this
// process's stdout and stderr as it comes; else it is kept in `output`.
MpiJob run_mpi_job(int ranks, const std::vector<std::string>& args, bool pass_output,
                   const std::vector<std::pair<std::string, std::string>>& environment = {});

}  // namespace ladder
