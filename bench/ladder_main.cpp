// ladder: the one program of hpc-ladder (docs/design.md, "The command line").
// Each command is in bench/cli/ (one file each, cli.hpp for what they
// share); here the command is found and run, and errors are caught and
// turned into one message and an exit status:
// 1 a rung failed its check, 2 bad usage or input, 3 a device failed.
#include <iostream>
#include <new>
#include <optional>

#include "bench/cli/cli.hpp"
#include "ladder/backends.hpp"
#include "ladder/error.hpp"
#include "ladder/registry.hpp"

int main(int argc, char** argv) {
  using namespace ladder;
  try {
#ifdef LADDER_EXERCISES_TRACK_LIBRARY
    // The participant's track, a library beside the program (exercises/CMakeLists.txt):
    // loaded here, on every rank, before any command looks for its rungs.
    load_track_library(kExercisesTrack, LADDER_EXERCISES_TRACK_LIBRARY);
#endif
    // Under mpirun, every rank but 0 follows rank 0's MPI rungs instead (ladder/mpi.hpp).
    // --ranks N: this command again, as N ranks under mpirun, watched (`check` takes it itself).
    if (const std::optional<int> job_status = run_with_ranks(argc, argv)) return *job_status;
    if (const std::optional<int> follower_status = start_mpi_rank()) return *follower_status;
    cli::Arguments args = cli::parse(argc, argv);
    if (cli::asks_for_help(args.command) || args.flag("--help")) {
      std::cout << cli::usage();
      return 0;
    }
    return cli::find_command(args.command)->run(args);
  } catch (const UsageError& error) {
    std::cerr << "ladder: error: " << error.what() << '\n';
    return 2;
  } catch (const DeviceError& error) {
    std::cerr << "ladder: device error: " << error.what() << '\n';
    return 3;
  } catch (const RungError& error) {  // a Python rung's exception, its worker's death or hang (`solve`)
    std::cerr << "ladder: the rung failed: " << error.what() << '\n';
    return 1;
  } catch (const std::bad_alloc&) {
    // Every command predicts its memory before allocating (Problem::host_bytes);
    // where a prediction falls short, the allocation that fails is caught here.
    std::cerr << "ladder: error: not enough memory for these inputs and parameters (an allocation failed); "
                 "try a smaller --size or --param\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "ladder: internal error: " << error.what() << '\n';
    return 4;
  }
}
