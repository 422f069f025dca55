// vector_add (bench/problems/vector_add/README.md): c = a + b over float32, bit-exact. The
// "hello world" of OpenCL and CUDA, and the exercise where the GPU wins on
// compute-only time and loses once the transfers count.
#include <limits>
#include <utility>

#include "ladder/error.hpp"
#include "ladder/random.hpp"
#include "ladder/registry.hpp"

namespace ladder {
namespace {

class VectorAdd final : public Problem {
 public:
  std::string name() const override { return "vector_add"; }
  std::string summary() const override { return "c = a + b over float32 vectors (bit-exact)"; }

  std::vector<ParamSpec> params() const override {
    return {{"n", "elements per vector", 1, double{1u << 31}, true, true}};
  }
  std::vector<SizePreset> sizes() const override {
    return {{"tiny", {{"n", "1000003"}}}, {"workshop", {{"n", "16777216"}}}, {"large", {{"n", "134217728"}}}};
  }
  // The five, then OpenMP target offload, plain and told the cuda rung's
  // shape: named, so that a build without it lists the rungs with the reason.
  std::vector<std::string> rungs() const override {
    return {"naive", "serial", "openmp", "opencl", "cuda", "openmp_target", "openmp_target_quads"};
  }
  std::vector<InputSpec> inputs() const override {
    return {{"a", "float32 array (any shape)"}, {"b", "float32 array of a's shape"}};
  }
  std::vector<CheckCase> check_cases() const override {
    // 1, primes, and sizes that are no multiple of any block or vector width.
    std::vector<CheckCase> cases;
    for (auto [n, catches] : {std::pair{"1", "a single element"},
                              std::pair{"2", "a loop to i <= n, one write past the end"},
                              std::pair{"3", "the last element missed (a loop to i < n - 1)"},
                              std::pair{"5", "a partial last 4-wide vector"},
                              std::pair{"31", "a partial last 8- or 16-wide vector"},
                              std::pair{"1021", "a partial last work-group"},
                              std::pair{"65537", "one element past a power of two (a last block of one)"},
                              std::pair{"1000003", "many blocks, the last partial"}})
      cases.push_back({Params(std::map<std::string, std::string>{{"n", n}}), catches});
    return cases;
  }

  // Under Oclgrind (check --race): one element, a partial vector of four,
  // one partial work-group (1024 elements each), three with the last partial.
  std::vector<Params> simulator_cases() const override {
    std::vector<Params> cases;
    for (const char* n : {"1", "6", "1021", "2053"})
      cases.push_back(Params(std::map<std::string, std::string>{{"n", n}}));
    return cases;
  }

  Arrays generate(const Params& params, std::uint64_t seed) const override {
    const auto n = static_cast<std::size_t>(params.integer("n"));
    Arrays inputs{{"a", Array(DType::f32, {n})}, {"b", Array(DType::f32, {n})}};
    fill(inputs["a"].view<float>(), CounterRng(seed, 0));
    fill(inputs["b"].view<float>(), CounterRng(seed, 1));
    return inputs;
  }

  void validate(const Arrays& inputs, const Params&) const override {
    const Array& a = inputs.at("a");
    const Array& b = inputs.at("b");
    for (const char* name : {"a", "b"})
      if (inputs.at(name).dtype() != DType::f32)
        throw UsageError(std::string("input ") + name + " is a " + inputs.at(name).describe() +
                         "; vector_add takes float32");
    if (a.shape() != b.shape())
      throw UsageError("inputs a and b differ in shape: a is a " + a.describe() + ", b is a " + b.describe());
    if (a.size() == 0) throw UsageError("inputs a and b are empty; vector_add needs at least one element");
    if (a.size() > std::numeric_limits<std::uint32_t>::max())
      throw UsageError("inputs hold " + std::to_string(a.size()) + " elements; at most 2^32 - 1 are accepted");
  }

  Arrays allocate_outputs(const Arrays& inputs, const Params&) const override {
    return {{"c", Array(DType::f32, inputs.at("a").shape())}};
  }

  ArrayShapes input_shapes(const Params& params) const override {
    const auto n = static_cast<std::size_t>(params.integer("n"));
    return {{"a", {DType::f32, {n}}}, {"b", {DType::f32, {n}}}};
  }
  // a and b (and an OpenCL copy), c three times: the reference's, the
  // rung's and an OpenCL rung's buffer. 28 bytes an element.
  double host_bytes(const ArrayShapes& inputs, const Params&) const override {
    return 2 * total_bytes(inputs) + 3 * 4 * inputs.at("a").size();
  }

  Arrays reference(const Arrays& inputs, const Params& params) const override {
    Arrays outputs = allocate_outputs(inputs, params);
    auto a = inputs.at("a").view<float>();
    auto b = inputs.at("b").view<float>();
    auto c = outputs["c"].view<float>();
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = a[i] + b[i];  // IEEE float32 addition, as NumPy does
    return outputs;
  }

  CheckResult check(const Arrays& got, const Arrays& expected) const override { return check_identical(got, expected); }

  // The pure-Python loop: 0.89 s at 2^24 on the development machine kind
  // (and lists of about 100 bytes an element: 13 GB at the large size).
  std::optional<Prediction> predict(const std::string& rung, const Params& params) const override {
    if (rung != "python_loops") return std::nullopt;
    return Prediction{static_cast<double>(params.integer("n")) * 6e-8, "an addition in pure Python, about 60 ns each"};
  }

  Work work(const Arrays& inputs, const Params&) const override {
    const double n = static_cast<double>(inputs.at("a").size());
    return {.bytes = 12 * n, .operations = n, .bytes_in = 8 * n, .bytes_out = 4 * n};
  }

 private:
  // Values in [-1000, 1000): sums need rounding, so a rung that computes in
  // another precision or order shows up as a mismatch.
  static void fill(std::span<float> values, const CounterRng& rng) {
    const long n = static_cast<long>(values.size());
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) values[i] = 2000.0f * rng.uniform_float32(i) - 1000.0f;
  }
};

LADDER_REGISTER_PROBLEM(VectorAdd);

}  // namespace
}  // namespace ladder
