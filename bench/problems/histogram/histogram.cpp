// histogram (bench/problems/histogram/README.md): counts[v] = how many of the N values equal
// v, for v in [0, 256), exact. The shared-memory episode of the GPU lesson:
// the `skewed` distribution (90 % one value) is the contention case.
#include <stdexcept>
#include <utility>

#include "ladder/error.hpp"
#include "ladder/random.hpp"
#include "ladder/registry.hpp"

namespace ladder {
namespace {

constexpr std::size_t kBins = 256;
constexpr std::size_t kMaxValues = std::size_t{1} << 31;  // the rungs index with 32-bit counters
constexpr std::uint8_t kSkewedValue = 42;
constexpr float kSkewedFraction = 0.9f;

// Calls f(i, value) for every element of an integer array, whatever its dtype.
template <class F>
void for_each_value(const Array& array, F f) {
  auto each = [&](auto values) {
    for (std::size_t i = 0; i < values.size(); ++i) f(i, static_cast<std::int64_t>(values[i]));
  };
  switch (array.dtype()) {
    case DType::u8:
      each(array.view<std::uint8_t>());
      break;
    case DType::u16:
      each(array.view<std::uint16_t>());
      break;
    case DType::i32:
      each(array.view<std::int32_t>());
      break;
    case DType::u32:
      each(array.view<std::uint32_t>());
      break;
    case DType::i64:
      each(array.view<std::int64_t>());
      break;
    case DType::f32:
    case DType::f64:
      throw std::logic_error("for_each_value: not an integer dtype");
  }
}

class Histogram final : public Problem {
 public:
  std::string name() const override { return "histogram"; }
  std::string summary() const override { return "256-bin histogram of uint8 values (exact)"; }
  // The lesson's global-atomics kernel is the step between opencl and cuda.
  std::vector<std::string> rungs() const override {
    return {"naive", "serial", "openmp", "opencl", "cuda_atomics", "cuda", "openmp_target"};
  }

  // The mpi rungs split the values: weak scaling grows their number.
  std::optional<std::string> weak_scaling_parameter(const Params&) const override { return "n"; }

  std::vector<ParamSpec> params() const override {
    return {{"n", "number of values", 1, double(kMaxValues), true, true},
            {.name = "distribution",
             .description = "uniform: every value equally likely; skewed: 90 % of the values are 42",
             .generator_only = true,
             .choices = {"uniform", "skewed"}}};
  }
  std::vector<SizePreset> sizes() const override {
    return {{"tiny", {{"n", "1000003"}, {"distribution", "uniform"}}},
            {"workshop", {{"n", "16777216"}, {"distribution", "uniform"}}},
            {"large", {{"n", "268435456"}, {"distribution", "uniform"}}}};
  }
  std::vector<InputSpec> inputs() const override {
    return {{"values", "uint8 array (any shape; integer dtypes with every value in [0, 255] are checked)"}};
  }
  std::vector<CheckCase> check_cases() const override {
    // The smallest input, either side of the bin count, sizes that are no
    // multiple of any vector (16) or block width (nor of 2 or 3 ranks), and
    // both distributions: skewed, 90 % of the values in one bin, is the
    // contention case. One and two values leave an mpi rank with none.
    std::vector<CheckCase> cases;
    for (const char* distribution : {"uniform", "skewed"})
      for (auto [n, catches] : {std::pair{"1", "a single value; on 2 ranks or more, a rank with none"},
                                std::pair{"2", "two values; on 3 ranks, a rank with none"},
                                std::pair{"15", "fewer values than a 16-wide vector"},
                                std::pair{"17", "a partial last 16-wide vector"},
                                std::pair{"255", "one value fewer than bins"},
                                std::pair{"256", "as many values as bins"},
                                std::pair{"257", "one value more than bins"},
                                std::pair{"4099", "a partial last work-group"},
                                std::pair{"65537", "the last bin, 255 (bins off by one at the top)"},
                                std::pair{"1000003", "many blocks' private histograms merged"}})
        cases.push_back({Params(std::map<std::string, std::string>{{"n", n}, {"distribution", distribution}}),
                         std::string(catches) + (std::string(distribution) == "skewed" ? ", under contention" : "")});
    return cases;
  }

  // Under Oclgrind (check --race): one value; two work-groups of 256, the
  // second partial, many values in one bin (skewed: the atomics contend);
  // more values than the groups' work-items, so each strides.
  std::vector<Params> simulator_cases() const override {
    std::vector<Params> cases;
    for (auto [n, distribution] : {std::pair{"1", "uniform"}, std::pair{"257", "skewed"}, std::pair{"1000", "uniform"},
                                   std::pair{"4099", "skewed"}})
      cases.push_back(Params(std::map<std::string, std::string>{{"n", n}, {"distribution", distribution}}));
    return cases;
  }

  Arrays generate(const Params& params, std::uint64_t seed) const override {
    const auto n = static_cast<std::size_t>(params.integer("n"));
    const bool skewed = params.text("distribution") == "skewed";
    Arrays inputs{{"values", Array(DType::u8, {n})}};
    auto values = inputs["values"].view<std::uint8_t>();
    const CounterRng value_rng(seed, 0);
    const CounterRng choice_rng(seed, 1);  // skewed: is this element the common value?
    const long count = static_cast<long>(n);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < count; ++i) {
      const bool common = skewed && choice_rng.uniform_float32(i) < kSkewedFraction;
      values[i] = common ? kSkewedValue : static_cast<std::uint8_t>(value_rng.below(i, kBins));
    }
    return inputs;
  }

  void validate(const Arrays& inputs, const Params&) const override {
    const Array& values = inputs.at("values");
    const DType dtype = values.dtype();
    if (dtype == DType::f32 || dtype == DType::f64)
      throw UsageError("input values is a " + values.describe() +
                       "; histogram takes uint8 (or uint16, int32, uint32, int64 values in [0, 255])");
    if (values.size() == 0) throw UsageError("input values is empty; histogram needs at least one value");
    if (values.size() > kMaxValues)
      throw UsageError("input values holds " + std::to_string(values.size()) +
                       " elements; at most 2^31 are accepted (the counts are uint32)");
    if (dtype == DType::u8) return;
    for_each_value(values, [](std::size_t i, std::int64_t v) {
      if (v < 0 || v > 255)
        throw UsageError("values[" + std::to_string(i) + "] = " + std::to_string(v) + " does not fit in [0, 255]");
    });
  }

  // Integer values that validate() found in [0, 255] become the uint8 the rungs read.
  void normalise(Arrays& inputs) const override {
    Array& values = inputs.at("values");
    if (values.dtype() == DType::u8) return;
    Array bytes(DType::u8, values.shape());
    auto out = bytes.view<std::uint8_t>();
    for_each_value(values, [&](std::size_t i, std::int64_t v) { out[i] = static_cast<std::uint8_t>(v); });
    values = std::move(bytes);
  }

  Arrays allocate_outputs(const Arrays&, const Params&) const override {
    return {{"counts", Array(DType::u32, {kBins})}};
  }

  ArrayShapes input_shapes(const Params& params) const override {
    return {{"values", {DType::u8, {static_cast<std::size_t>(params.integer("n"))}}}};
  }
  // The values as given, their uint8 copy where they come in another dtype
  // (normalise), an OpenCL copy of the uint8 values, and the 1 KiB of
  // counts three times (the reference's, the rung's, an OpenCL buffer).
  double host_bytes(const ArrayShapes& inputs, const Params&) const override {
    const ArrayShape& values = inputs.at("values");
    const double conversion = values.dtype == DType::u8 ? 0 : values.size();
    return values.bytes() + conversion + values.size() + 3 * 4.0 * kBins;
  }

  // Counts any integer dtype, so that the reference does not depend on how
  // the values were stored.
  Arrays reference(const Arrays& inputs, const Params& params) const override {
    Arrays outputs = allocate_outputs(inputs, params);
    auto counts = outputs["counts"].view<std::uint32_t>();
    for_each_value(inputs.at("values"), [&](std::size_t, std::int64_t v) { ++counts[static_cast<std::size_t>(v)]; });
    return outputs;
  }

  CheckResult check(const Arrays& got, const Arrays& expected) const override { return check_identical(got, expected); }

  // The pure-Python loop: 0.37-0.62 s at 2^24 on the development machine kind.
  std::optional<Prediction> predict(const std::string& rung, const Params& params) const override {
    if (rung != "python_loops") return std::nullopt;
    return Prediction{static_cast<double>(params.integer("n")) * 4e-8, "a count in pure Python, about 40 ns each"};
  }

  Work work(const Arrays& inputs, const Params&) const override {
    // Each value is read once; the 1 KiB of counts is negligible.
    const double n = static_cast<double>(inputs.at("values").size());
    return {.bytes = n, .operations = n, .bytes_in = n, .bytes_out = 4.0 * kBins};
  }
};

LADDER_REGISTER_PROBLEM(Histogram);

}  // namespace
}  // namespace ladder
