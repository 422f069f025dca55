// primes (bench/problems/primes/README.md): flags[k] = 1 exactly when k is prime, for
// 0 <= k < n, as uint8; 0 and 1 are not prime. The CUDA challenge of the GPU
// lesson. No input arrays: n is the only parameter.
#include <cmath>
#include <limits>
#include <utility>

#include "ladder/error.hpp"
#include "ladder/registry.hpp"

namespace ladder {
namespace {

constexpr double kMaxN = std::numeric_limits<std::uint32_t>::max();  // numbers fit in 32 bits

class Primes final : public Problem {
 public:
  std::string name() const override { return "primes"; }
  std::string summary() const override { return "uint8 flags of the primes below n (exact)"; }
  // Each backend's trial-division rung (the lesson's answer) before its sieve.
  std::vector<std::string> rungs() const override {
    return {"naive", "serial", "openmp", "opencl_trial", "opencl", "cuda_trial", "cuda"};
  }

  // Not generator_only: there is no input file, so `solve` takes n from --param.
  std::vector<ParamSpec> params() const override {
    return {{"n", "flags for the numbers 0 <= k < n", 0, kMaxN, true, false}};
  }
  std::vector<SizePreset> sizes() const override {
    return {{"tiny", {{"n", "10007"}}}, {"workshop", {{"n", "100000"}}}, {"large", {{"n", "100000000"}}}};
  }
  std::vector<InputSpec> inputs() const override { return {}; }
  std::vector<CheckCase> check_cases() const override {
    // The empty output, 0 and 1 (not prime), 2 (the only even prime), n just
    // past a prime (7919) and just short of one, n - 1 the square of a prime
    // (the sieve's bound p * p <= n - 1: with p * p < n - 1, 9 and 994009
    // stay prime; no other case sees it), a power of two, and sizes that
    // span many segments and many GPU blocks.
    std::vector<CheckCase> cases;
    for (auto [n, catches] : {std::pair{"0", "the empty output"},
                              std::pair{"1", "0 taken as prime"},
                              std::pair{"2", "1 taken as prime"},
                              std::pair{"3", "2, the only even prime, crossed out"},
                              std::pair{"4", "a sieve that crosses out p itself"},
                              std::pair{"10", "the sieve's bound off by one (n - 1 = 3 * 3 left prime)"},
                              std::pair{"7919", "a loop to k <= n (n = 7919 is prime)"},
                              std::pair{"7920", "the upper end n - 1 (7919, a prime) left out"},
                              std::pair{"65536", "a power of two: the last segment or block exactly full"},
                              std::pair{"994010", "the sieve's bound off by one past a segment (n - 1 = 997 * 997)"},
                              std::pair{"1000003", "many segments, the last partial"},
                              std::pair{"10000000", "many GPU blocks, sieving primes past one segment"}})
      cases.push_back({Params(std::map<std::string, std::string>{{"n", n}}), catches});
    return cases;
  }

  // Under Oclgrind (check --race): no flags, 0 to 3, one segment cut short
  // by n, and three segments (65536 numbers each), the last partial.
  std::vector<Params> simulator_cases() const override {
    std::vector<Params> cases;
    for (const char* n : {"0", "1", "2", "4", "7920", "140001"})
      cases.push_back(Params(std::map<std::string, std::string>{{"n", n}}));
    return cases;
  }

  Arrays generate(const Params&, std::uint64_t) const override { return {}; }

  void validate(const Arrays&, const Params& params) const override {
    const std::string accepted = "an integer from 0 to 4294967295, the flags' length";
    if (!params.has("n")) throw UsageError("primes needs n: --param n=N (" + accepted + ")");
    const double n = params.number("n");
    if (n != std::floor(n) || n < 0 || n > kMaxN)
      throw UsageError("parameter n=" + params.text("n") + " is refused by primes (accepted: " + accepted + ")");
  }

  Arrays allocate_outputs(const Arrays&, const Params& params) const override {
    return {{"flags", Array(DType::u8, {static_cast<std::size_t>(params.integer("n"))})}};
  }

  ArrayShapes input_shapes(const Params&) const override { return {}; }
  // The n flags three times: the reference's, the rung's and an OpenCL
  // rung's buffer. The sieves' segments and base primes are small.
  double host_bytes(const ArrayShapes&, const Params& params) const override { return 3 * params.number_or("n", 0); }

  // The plain sieve of Eratosthenes: every number a candidate, then each
  // prime p crosses out p*p, p*p + p, ...
  Arrays reference(const Arrays& inputs, const Params& params) const override {
    Arrays outputs = allocate_outputs(inputs, params);
    auto flags = outputs["flags"].view<std::uint8_t>();
    const std::uint64_t n = flags.size();
    for (std::uint64_t k = 2; k < n; ++k) flags[k] = 1;
    for (std::uint64_t p = 2; p * p < n; ++p)
      if (flags[p])
        for (std::uint64_t m = p * p; m < n; m += p) flags[m] = 0;
    return outputs;
  }

  CheckResult check(const Arrays& got, const Arrays& expected) const override {
    CheckResult result = check_identical(got, expected);
    std::uint64_t count = 0;
    for (std::uint8_t flag : expected.at("flags").view<std::uint8_t>()) count += flag;
    result.figures["primes_below_n"] = count;  // π(n - 1), for comparison with primesieve
    return result;
  }

  // Bytes: the n flags written (nothing is read). Operations: one per flag,
  // the classification of one number: a rate of numbers per second.
  Work work(const Arrays&, const Params& params) const override {
    const double n = static_cast<double>(params.integer("n"));
    return {.bytes = n, .operations = n, .bytes_in = 0, .bytes_out = n};
  }

  // naive divides each prime p by 2 ... p/2 and each composite by 2 ... its
  // smallest factor: about n^2 / (4 ln n) divisions, the primes' share
  // dominating (n / ln n primes of average size n / 2, halved). The trial
  // rungs divide up to sqrt(k), and a GPU warp of 32 consecutive numbers
  // waits for its slowest one (a prime, nearly always): about n^1.5 / 32
  // warp-divisions of ~20 instructions each.
  std::optional<Prediction> predict(const std::string& rung, const Params& params) const override {
    const double n = static_cast<double>(params.integer("n"));
    if (n < 16) return std::nullopt;
    if (rung == "naive")
      return Prediction{n * n / (4 * std::log(n)) * kSecondsPerDivision,
                        "trial division to k/2 is quadratic: about n^2 / (4 ln n) divisions, ~2 ns each"};
    // The solutions' pure-Python sieve: 4.8 ms at 10^5 on the development machine kind.
    if (rung == "python_loops") return Prediction{n * 5e-8, "a sieve in pure Python, about 50 ns a number"};
    if (rung == "cuda_trial" || rung == "opencl_trial" || rung == "python_cupy" || rung == "python_numba_cuda")
      return Prediction{std::pow(n, 1.5) / 32 * kSecondsPerWarpDivision,
                        "trial division to sqrt(k): about n^1.5 / 32 warp-divisions on a data-centre GPU"};
    return std::nullopt;
  }

 private:
  // Calibrated on the 2-core AMD EPYC development VM: naive took 0.47 s at
  // n = 10^5 and 3.8 s at 3 * 10^5, 2.1 ns per predicted division. The GPU
  // figure is ~20 instructions per 32-bit division over an H100's 528 warp
  // schedulers at 1.7 GHz; predict() cannot see the device, and on a CPU
  // (PoCL) opencl_trial is far slower than this (README.md).
  static constexpr double kSecondsPerDivision = 2.1e-9;
  static constexpr double kSecondsPerWarpDivision = 20.0 / (528 * 1.7e9);
};

LADDER_REGISTER_PROBLEM(Primes);

}  // namespace
}  // namespace ladder
