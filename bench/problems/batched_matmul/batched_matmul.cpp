// batched_matmul (bench/problems/batched_matmul/README.md): c[b] = a[b] @ b[b] for every b of
// the batch, float32, C order. NumbaPro's `@guvectorize` pattern, a core
// function over small slices applied across a batch: "(m,n),(n,p)->(m,p)"
// over 1000 matrices of 2×4 and 4×5 in the slides' example.
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>

#include "ladder/error.hpp"
#include "ladder/random.hpp"
#include "ladder/registry.hpp"

namespace ladder {
namespace {

// The largest m, n and p: the check's rule (below) holds for n <= 64.
constexpr double kMaxSide = 64;
// The rungs index elements with 32 bits: a, b and c each hold fewer than 2^31.
constexpr double kMaxElements = std::numeric_limits<std::int32_t>::max();
// Every element within this fraction of Σ_k |a_ik|·|b_kj| of the float64
// product (bench/problems/batched_matmul/README.md says why any float32 sum passes).
constexpr double kTolerance = 1e-5;

struct Shape {
  std::size_t batch = 0, m = 0, n = 0, p = 0;
};

Shape shape_of(const Params& params) {
  return {static_cast<std::size_t>(params.integer("batch")), static_cast<std::size_t>(params.integer("m")),
          static_cast<std::size_t>(params.integer("n")), static_cast<std::size_t>(params.integer("p"))};
}

Shape shape_of(const Arrays& inputs) {
  const auto& a = inputs.at("a").shape();
  const auto& b = inputs.at("b").shape();
  return {a[0], a[1], a[2], b[2]};
}

std::string number_of(std::size_t value) { return std::to_string(value); }

class BatchedMatmul final : public Problem {
 public:
  std::string name() const override { return "batched_matmul"; }
  std::string summary() const override {
    return "c[b] = a[b] @ b[b] over a batch of small float32 matrices (NumbaPro's guvectorize)";
  }
  // cuda_cublas: the library rung, cuBLAS's strided batched GEMM.
  std::vector<std::string> rungs() const override {
    return {"naive", "serial", "openmp", "opencl", "cuda", "cuda_cublas"};
  }

  std::vector<ParamSpec> params() const override {
    return {{"batch", "number of matrix pairs", 1, kMaxElements, true, true},
            {"m", "rows of a[b] and c[b]", 1, kMaxSide, true, true},
            {"n", "columns of a[b], rows of b[b]", 1, kMaxSide, true, true},
            {"p", "columns of b[b] and c[b]", 1, kMaxSide, true, true}};
  }
  // The slides' shapes, (2, 4, 5): tiny as in the slides (1000 pairs, one
  // more to be awkward), workshop with enough pairs for the fastest rung to
  // take tens of microseconds. large: 16 × 16 products, where the GPU rungs
  // take a few hundred microseconds and the library is the right tool.
  std::vector<SizePreset> sizes() const override {
    return {{"tiny", {{"batch", "1001"}, {"m", "2"}, {"n", "4"}, {"p", "5"}}},
            {"workshop", {{"batch", "1048576"}, {"m", "2"}, {"n", "4"}, {"p", "5"}}},
            {"large", {{"batch", "262144"}, {"m", "16"}, {"n", "16"}, {"p", "16"}}}};
  }
  std::vector<InputSpec> inputs() const override {
    return {{"a", "float32 array of shape (batch, m, n)"}, {"b", "float32 array of shape (batch, n, p)"}};
  }
  std::vector<CheckCase> check_cases() const override {
    // One pair of 1 × 1; the largest sides; sides that are no multiple of
    // any tile or vector width; a batch that is no multiple of any block.
    std::vector<CheckCase> cases;
    for (const auto& [batch, m, n, p, catches] : std::vector<std::array<const char*, 5>>{
             {"1", "1", "1", "1", "one pair of 1 x 1"},
             {"1", "64", "64", "64", "the largest sides, whole tiles"},
             {"3", "1", "7", "1", "a row times a column: a dot product"},
             {"17", "2", "4", "5", "p no multiple of a 4-wide vector: a partial last vector"},
             {"5", "3", "1", "6", "n = 1: an outer product"},
             {"33", "16", "16", "16", "a batch no multiple of a block, whole tiles"},
             {"7", "17", "33", "9", "m, n and p all different and no tile divides them"},
             {"2", "64", "1", "64", "n = 1 on the largest sides"},
             {"4099", "5", "5", "5", "many small pairs: the batch's stride"}})
      cases.push_back(
          {Params(std::map<std::string, std::string>{{"batch", batch}, {"m", m}, {"n", n}, {"p", p}}), catches});
    return cases;
  }

  // Under Oclgrind (check --race): each of the solution's three kernels,
  // by how many outputs a pair has (under 64, 64 to 1023, 1024 and more):
  // 1 × 1; tiny pairs over two work-groups of 256, the second partial; a
  // work-group per pair with sides no tile divides; register tiles with
  // sides no multiple of 4, and whole tiles.
  std::vector<Params> simulator_cases() const override {
    std::vector<Params> cases;
    for (const auto& [batch, m, n, p] : std::vector<std::array<const char*, 4>>{{"1", "1", "1", "1"},
                                                                                {"33", "3", "5", "3"},
                                                                                {"3", "9", "7", "11"},
                                                                                {"2", "33", "17", "35"},
                                                                                {"1", "32", "8", "32"}})
      cases.push_back(Params(std::map<std::string, std::string>{{"batch", batch}, {"m", m}, {"n", n}, {"p", p}}));
    return cases;
  }

  // Values in [-1, 1): products and sums need rounding, and terms of both
  // signs cancel, so a sum that drops or doubles a term shows.
  Arrays generate(const Params& params, std::uint64_t seed) const override {
    const Shape s = shape_of(params);
    Arrays inputs{{"a", Array(DType::f32, {s.batch, s.m, s.n})}, {"b", Array(DType::f32, {s.batch, s.n, s.p})}};
    fill(inputs["a"].view<float>(), CounterRng(seed, 0));
    fill(inputs["b"].view<float>(), CounterRng(seed, 1));
    return inputs;
  }

  void validate(const Arrays& inputs, const Params&) const override {
    for (const char* name : {"a", "b"}) {
      const Array& array = inputs.at(name);
      if (array.dtype() != DType::f32)
        throw UsageError(std::string("input ") + name + " is a " + array.describe() + "; batched_matmul takes float32");
      if (array.shape().size() != 3)
        throw UsageError(std::string("input ") + name + " is a " + array.describe() +
                         "; batched_matmul takes 3-D arrays, a (batch, m, n) and b (batch, n, p)");
      for (std::size_t side : array.shape())
        if (side == 0) throw UsageError(std::string("input ") + name + " is empty (" + array.describe() + ")");
      for (std::size_t axis = 1; axis < 3; ++axis)
        if (double(array.shape()[axis]) > kMaxSide)
          throw UsageError(std::string("input ") + name + " is a " + array.describe() +
                           "; batched_matmul accepts matrices of at most 64 × 64");
      if (double(array.size()) > kMaxElements)
        throw UsageError(std::string("input ") + name + " holds " + number_of(array.size()) +
                         " elements; at most 2^31 - 1 are accepted (the rungs index with int32)");
    }
    const Array& a = inputs.at("a");
    const Array& b = inputs.at("b");
    if (a.shape()[0] != b.shape()[0])
      throw UsageError("inputs a and b hold different batches: a is a " + a.describe() + ", b is a " + b.describe());
    if (a.shape()[2] != b.shape()[1])
      throw UsageError("inner dimensions differ: a is a " + a.describe() + " (n = " + number_of(a.shape()[2]) +
                       "), b is a " + b.describe() + " (n = " + number_of(b.shape()[1]) + ")");
    const Shape s = shape_of(inputs);
    if (double(s.batch) * double(s.m) * double(s.p) > kMaxElements)
      throw UsageError("the output would hold " + std::to_string(s.batch * s.m * s.p) +
                       " elements; at most 2^31 - 1 are accepted (the rungs index with int32)");
  }

  Arrays allocate_outputs(const Arrays& inputs, const Params&) const override {
    const Shape s = shape_of(inputs);
    return {{"c", Array(DType::f32, {s.batch, s.m, s.p})}};
  }

  ArrayShapes input_shapes(const Params& params) const override {
    const Shape s = shape_of(params);
    return {{"a", {DType::f32, {s.batch, s.m, s.n}}}, {"b", {DType::f32, {s.batch, s.n, s.p}}}};
  }
  // a and b (and an OpenCL copy), c three times (the reference's, the
  // rung's, an OpenCL buffer) and the reference's scale (float64).
  double host_bytes(const ArrayShapes& inputs, const Params&) const override {
    const auto& a = inputs.at("a").shape;
    const auto& b = inputs.at("b").shape;
    // solve estimates before validate() refuses another rank: read no axis that is not there.
    const double outputs = a.size() == 3 && b.size() == 3 ? double(a[0]) * double(a[1]) * double(b[2]) : 0;
    return 2 * total_bytes(inputs) + 3 * 4 * outputs + 8 * outputs;
  }

  // c in float64 (rounded once to float32) and, for the check, each
  // element's scale Σ_k |a_ik|·|b_kj|.
  Arrays reference(const Arrays& inputs, const Params& params) const override {
    const Shape s = shape_of(inputs);
    Arrays outputs = allocate_outputs(inputs, params);
    outputs.emplace("scale", Array(DType::f64, {s.batch, s.m, s.p}));
    auto a = inputs.at("a").view<float>();
    auto b = inputs.at("b").view<float>();
    auto c = outputs["c"].view<float>();
    auto scale = outputs["scale"].view<double>();
    const long batch = static_cast<long>(s.batch);
#pragma omp parallel for schedule(static)
    for (long q = 0; q < batch; ++q)
      for (std::size_t i = 0; i < s.m; ++i)
        for (std::size_t j = 0; j < s.p; ++j) {
          double sum = 0, magnitude = 0;
          for (std::size_t k = 0; k < s.n; ++k) {
            const double product = double{a[(q * s.m + i) * s.n + k]} * double{b[(q * s.n + k) * s.p + j]};  // exact
            sum += product, magnitude += std::abs(product);
          }
          c[(q * s.m + i) * s.p + j] = static_cast<float>(sum);
          scale[(q * s.m + i) * s.p + j] = magnitude;
        }
    return outputs;
  }

  // Every element within kTolerance · Σ_k |a_ik|·|b_kj| of the reference.
  // A float32 sum of n products in any order (fused or not) is within
  // n·2^-24 of that scale (the standard bound for a dot product), 3.8e-6
  // at n = 64, and the reference's own rounding to float32 adds at most
  // 2^-24 of it: so every correct rung passes, and one that drops, doubles
  // or misplaces a term is off by about a whole term.
  CheckResult check(const Arrays& got, const Arrays& expected) const override {
    CheckResult result;
    const Array& want = expected.at("c");
    auto found = got.find("c");
    if (found == got.end()) {
      result.detail = "output 'c' is missing";
      return result;
    }
    const Array& have = found->second;
    if (have.dtype() != DType::f32 || have.shape() != want.shape()) {
      result.detail = "output 'c' is a " + have.describe() + ", expected a " + want.describe();
      return result;
    }
    const auto values = have.view<float>();
    const auto reference = want.view<float>();
    const auto scale = expected.at("scale").view<double>();
    std::size_t outside = 0, worst = 0;
    double worst_ratio = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const double error = std::abs(double{values[i]} - double{reference[i]});
      const bool ok = error <= kTolerance * scale[i];  // false for NaN
      const double ratio = scale[i] > 0 ? error / scale[i] : (error == 0 ? 0.0 : HUGE_VAL);
      if (!ok) ++outside;
      if (!(ratio <= worst_ratio)) worst = i, worst_ratio = ratio;  // NaN counts as the worst
    }
    result.ok = outside == 0;
    result.figures = {{"comparison", "|c - reference| <= 1e-5 * sum_k |a_ik| |b_kj|, every element"},
                      {"elements_outside", outside},
                      {"worst_error_over_scale", worst_ratio}};
    const auto& shape = want.shape();
    const std::size_t j = worst % shape[2], i = (worst / shape[2]) % shape[1], q = worst / (shape[2] * shape[1]);
    const std::string where = "c[" + number_of(q) + ", " + number_of(i) + ", " + number_of(j) + "]";
    if (result.ok) {
      result.detail = "every element within 1e-5 of its scale (worst " + where + ")";
    } else {
      char text[160];
      std::snprintf(text, sizeof text, ": expected %.9g, got %.9g (scale %.9g)", double{reference[worst]},
                    double{values[worst]}, scale[worst]);
      result.detail = number_of(outside) + " element(s) off by more than 1e-5 of their scale; the worst is " + where +
                      text;
    }
    return result;
  }

  // Each input read once, c written once; 2 n operations (multiply, add) an element of c.
  // The pure-Python triple loop: 8.4 s at 2^20 pairs of 2 × 4 by 4 × 5 on
  // the development machine kind, 0.2 µs a multiply-add.
  std::optional<Prediction> predict(const std::string& rung, const Params& params) const override {
    if (rung != "python_loops") return std::nullopt;
    const double multiply_adds = static_cast<double>(params.integer("batch")) * static_cast<double>(params.integer("m")) *
                                 static_cast<double>(params.integer("n")) * static_cast<double>(params.integer("p"));
    return Prediction{multiply_adds * 2e-7, "a multiply-add in pure Python, about 0.2 µs each"};
  }

  Work work(const Arrays& inputs, const Params&) const override {
    const Shape s = shape_of(inputs);
    const double in = 4.0 * double(s.batch) * double(s.m * s.n + s.n * s.p);
    const double out = 4.0 * double(s.batch) * double(s.m * s.p);
    return {.bytes = in + out,
            .operations = 2.0 * double(s.batch) * double(s.m) * double(s.n) * double(s.p),
            .bytes_in = in,
            .bytes_out = out};
  }

 private:
  static void fill(std::span<float> values, const CounterRng& rng) {
    const long n = static_cast<long>(values.size());
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) values[i] = 2.0f * rng.uniform_float32(i) - 1.0f;
  }
};

LADDER_REGISTER_PROBLEM(BatchedMatmul);

}  // namespace
}  // namespace ladder
