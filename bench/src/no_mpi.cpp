// Stands in for bench/mpi when the project is built without MPI.
#include <string>

#include "ladder/backends.hpp"
#include "ladder/error.hpp"
#include "ladder/mpi_job.hpp"

namespace ladder {

Availability mpi_availability() {
  return {false, "built without MPI (LADDER_MPI: no MPI found, or the option is OFF; Debian: libopenmpi-dev)"};
}
std::optional<int> start_mpi_rank() { return std::nullopt; }
int mpi_ranks_on_this_machine() { return 1; }
int mpi_job_ranks() { return 1; }
bool launched_by_mpirun() { return false; }
nlohmann::json measure_communication(bool) { return nullptr; }
std::optional<int> run_with_ranks(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]).rfind("--ranks", 0) == 0) throw UsageError("--ranks: " + mpi_availability().reason);
  return std::nullopt;
}
int ranks_from_text(const std::string&) { throw UsageError("--ranks: " + mpi_availability().reason); }
void set_mpi_case(const std::string&) {}
void set_mpi_hang_limit(double) {}

MpiJob run_mpi_job(int, const std::vector<std::string>&, bool, const std::vector<std::pair<std::string, std::string>>&) {
  throw UsageError("--ranks: " + mpi_availability().reason);
}
std::string MpiJob::describe() const { return ""; }

}  // namespace ladder
