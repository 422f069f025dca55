// One untimed run of a rung, as `check`, `solve` and the tests use it:
// outputs poisoned first, compute() twice, and the guard zones after the
// outputs checked for writes past their end. A file of its own: nothing here
// is timed, and the harness's timed run shares only the poison and the guards.
#include <cstring>

#include "bench/src/harness_internal.hpp"
#include "ladder/ceil_div.hpp"
#include "ladder/error.hpp"
#include "ladder/harness.hpp"

namespace ladder {

void poison(Arrays& outputs) {
  for (auto& [name, array] : outputs) std::memset(array.raw(), 0xA5, array.bytes());
}

void check_guard_zones(const Arrays& outputs, const std::string& step) {
  for (const auto& [name, array] : outputs) {
    const std::size_t overrun = array.guard_overrun();
    if (overrun == 0) continue;
    const std::size_t value_bytes = dtype_size(array.dtype());
    throw OutOfBounds(step + " wrote past the end of output '" + name + "' (" + array.describe() + "): up to " +
                      std::to_string(overrun) + " bytes past its end (" +
                      std::to_string(ceil_div(overrun, value_bytes)) + " " + dtype_name(array.dtype()) +
                      " value(s): is a loop bound <= where it should be <?)");
  }
}

Arrays run_once(const RungEntry& entry, const Arrays& inputs, const Params& params, const RunOptions& options,
                const Problem& problem, int computes) {
  Availability availability = rung_availability(entry.exercise, entry.rung, entry.track, options);
  if (!availability.available)
    throw DeviceError("rung " + entry.rung + " of " + entry.exercise + " cannot run here: " + availability.reason);
  Arrays outputs = problem.allocate_outputs(inputs, params);
  poison(outputs);
  auto rung = entry.make({params, options, entry.track});
  rung->attach_host_memory(inputs, outputs);
  rung->prepare(inputs, outputs);
  rung->upload();
  // Twice: the harness runs compute() again and again, and each run must
  // give the whole answer afresh (state left by the first run shows here).
  for (int i = 0; i < computes; ++i) rung->compute();
  rung->download();
  rung->collect();
  rung->synchronize();
  check_guard_zones(outputs, "compute or download");
  rung->check_device_guard_zones();
  return outputs;
}

CheckResult check_case(const RungEntry& entry, const Problem& problem, const Params& params, std::uint64_t seed,
                       const RunOptions& options, int computes) {
  const Arrays inputs = problem.generate(params, seed);
  try {
    return problem.check(run_once(entry, inputs, params, options, problem, computes), problem.reference(inputs, params));
  } catch (const DeviceError& error) {
    return {false, error.what(), {}};
  } catch (const OutOfBounds& error) {
    return {false, error.what(), {}};
  } catch (const RungError& error) {
    return {false, error.what(), {}};
  }
}

}  // namespace ladder
