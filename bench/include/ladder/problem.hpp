#pragma once
// Problem: what an exercise computes, independent of any rung. It declares
// parameters and size presets, generates inputs, computes the reference,
// checks a rung's output, and states the minimum work (bytes, operations)
// from which throughput and the fraction of the ceiling follow.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ladder/array.hpp"
#include "ladder/params.hpp"

namespace ladder {

struct InputSpec {
  std::string name;
  std::string accepted;  // shown in errors, e.g. "1-D float32"
};

struct Work {
  double bytes = 0;      // minimum bytes read + written by the computation
  double operations = 0; // minimum arithmetic operations
  double bytes_in = 0;   // host -> device for a device rung
  double bytes_out = 0;  // device -> host
  // True where the operations are all FP32 multiplies and adds, as many as
  // the rung must do (convolution): a GPU rung is then judged against the
  // device's measured FP32 rate, not its bandwidth.
  bool fp32_bound = false;
  // True where `operations` are a rung's own (Rung::operations), fewer than
  // the problem's: the rung is then judged by whichever of them and the
  // bytes bounds it, the FP32 rate or the memory bandwidth.
  bool rung_operations = false;
};

// A rung's predicted compute time, for rungs that would run past the run's
// time budget (e.g. a quadratic naive rung at a large size), and why.
struct Prediction {
  double seconds = 0;
  std::string why;  // e.g. "trial division to k/2 is quadratic in n"
};

struct CheckResult {
  bool ok = false;
  std::string detail;     // first mismatch "index 17: expected 1.5, got 1.25" or "identical"
  nlohmann::json figures; // error figures: mismatches, max_abs_error, ...
};

// One parameter set `check` and the tests try, and the mistake it is there
// to catch ("a partial last work-group", "1 taken as prime"): a FAIL on it
// names that mistake, and each exercise's tests plant the mistake in a
// test-only rung and see this case fail.
struct CheckCase {
  Params params;
  std::string catches;
};

class Problem {
 public:
  virtual ~Problem() = default;

  virtual std::string name() const = 0;
  virtual std::string summary() const = 0;
  // Ladder order, extra rungs included; the first two are naive and serial.
  virtual std::vector<std::string> rungs() const { return {"naive", "serial", "openmp", "opencl", "cuda"}; }
  virtual std::vector<ParamSpec> params() const = 0;
  virtual std::vector<SizePreset> sizes() const = 0;  // "tiny", "workshop", "large"
  virtual std::vector<InputSpec> inputs() const = 0;
  // Parameter sets `check` and the tests try, each named for the mistake it
  // catches: awkward sizes, edge cases, the classic mistakes of the lesson.
  virtual std::vector<CheckCase> check_cases() const = 0;
  // The cases `check --race` runs the OpenCL rungs on, under Oclgrind's
  // simulated device (thousands of times slower than a real one): a few
  // small ones that together take every path of the kernels (several
  // work-groups and a partial one, each border, each kernel variant), so
  // that the whole simulated check takes seconds.
  virtual std::vector<Params> simulator_cases() const {
    std::vector<Params> cases;
    for (const auto& check_case : check_cases()) cases.push_back(check_case.params);
    return cases;
  }

  virtual Arrays generate(const Params& params, std::uint64_t seed) const = 0;
  // For `solve`: throws UsageError on a wrong dtype, shape or value.
  virtual void validate(const Arrays& inputs, const Params& params) const = 0;
  // For `solve`, after validate(): convert inputs of an accepted dtype to the
  // one the rungs read (e.g. int32 values in [0, 255] to uint8).
  virtual void normalise(Arrays& /*inputs*/) const {}
  virtual Arrays allocate_outputs(const Arrays& inputs, const Params& params) const = 0;
  virtual Arrays reference(const Arrays& inputs, const Params& params) const = 0;
  virtual CheckResult check(const Arrays& got, const Arrays& expected) const = 0;
  virtual Work work(const Arrays& inputs, const Params& params) const = 0;
  // The predicted time of one compute of `rung`, where the problem can say
  // (the harness skips a rung predicted to run past --time-budget).
  virtual std::optional<Prediction> predict(const std::string& /*rung*/, const Params& /*params*/) const {
    return std::nullopt;
  }
  // Weak scaling (`ladder run --sweep ranks=... --weak`): the parameter
  // multiplied by the ranks, the dimension that the distributed rungs split
  // among them, so that each rank's share stays the same. nullopt where the
  // problem has no distributed rung; a UsageError where `params` leave
  // nothing to split (median_filter's single image).
  virtual std::optional<std::string> weak_scaling_parameter(const Params& /*params*/) const { return std::nullopt; }
  // The memory check before any allocation (ladder run, check, generate,
  // solve; docs/design.md): the dtypes and shapes generate() makes for
  // `params`, and the host bytes one case needs at most with inputs of
  // those shapes (`solve` passes its files' headers): the inputs, any
  // conversion of them (normalise), the reference's outputs, a rung's
  // outputs, an OpenCL rung's buffers (PoCL keeps them in host memory) and
  // the largest scratch memory of the reference or a rung. A rough upper
  // estimate; the tests hold it between what a case allocates and 20 times
  // that. Parameters `solve` may lack count as 0 (validate() refuses them).
  virtual ArrayShapes input_shapes(const Params& params) const = 0;
  virtual double host_bytes(const ArrayShapes& inputs, const Params& params) const = 0;
  // For `solve`: writes the outputs (default: the one output array as .npy).
  virtual void save(const std::string& path, const Arrays& outputs, const Arrays& inputs, const Params& params) const;

  // The preset's values with `overrides` on top, validated.
  Params resolve(const std::string& size, const Params& overrides) const;
};

// Bit-for-bit comparison of every output array, naming the first mismatch.
CheckResult check_identical(const Arrays& got, const Arrays& expected);

}  // namespace ladder
