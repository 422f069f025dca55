// Adding an exercise: a toy one, built into a test program of its own
// (ladder_with_toy: `ladder` itself must never list it). Its problem and
// its two rungs below are all it takes for the program to list it, check
// it, run it and report it; tests/test_adding_an_exercise.sh sees each.
// toy_double: y = 2x over float32, bit-exact.
#include <cstdint>
#include <utility>

#include "ladder/error.hpp"
#include "ladder/random.hpp"
#include "ladder/registry.hpp"

namespace ladder {
namespace {

class ToyDouble final : public Problem {
 public:
  std::string name() const override { return "toy_double"; }
  std::string summary() const override { return "y = 2x over float32 (a test's toy exercise)"; }
  std::vector<std::string> rungs() const override { return {"naive", "serial"}; }
  std::vector<ParamSpec> params() const override { return {{"n", "elements", 1, 1 << 24, true, true}}; }
  std::vector<SizePreset> sizes() const override {
    return {{"tiny", {{"n", "1001"}}}, {"workshop", {{"n", "100003"}}}, {"large", {{"n", "1000003"}}}};
  }
  std::vector<InputSpec> inputs() const override { return {{"x", "float32 array"}}; }
  std::vector<CheckCase> check_cases() const override {
    std::vector<CheckCase> cases;
    for (auto [n, catches] : {std::pair{"1", "a single element"}, std::pair{"17", "a size no vector width divides"},
                              std::pair{"1001", "a partial last block"}})
      cases.push_back({Params(std::map<std::string, std::string>{{"n", n}}), catches});
    return cases;
  }
  Arrays generate(const Params& params, std::uint64_t seed) const override {
    Arrays inputs{{"x", Array(DType::f32, {static_cast<std::size_t>(params.integer("n"))})}};
    const CounterRng rng(seed, 0);
    auto x = inputs["x"].view<float>();
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = rng.uniform_float32(i) - 0.5f;
    return inputs;
  }
  void validate(const Arrays& inputs, const Params&) const override {
    if (inputs.at("x").dtype() != DType::f32) throw UsageError("toy_double takes float32");
  }
  Arrays allocate_outputs(const Arrays& inputs, const Params&) const override {
    return {{"y", Array(DType::f32, inputs.at("x").shape())}};
  }
  Arrays reference(const Arrays& inputs, const Params& params) const override {
    Arrays outputs = allocate_outputs(inputs, params);
    const auto x = inputs.at("x").view<float>();
    auto y = outputs["y"].view<float>();
    for (std::size_t i = 0; i < x.size(); ++i) y[i] = 2 * x[i];
    return outputs;
  }
  CheckResult check(const Arrays& got, const Arrays& expected) const override { return check_identical(got, expected); }
  Work work(const Arrays& inputs, const Params&) const override {
    const double n = static_cast<double>(inputs.at("x").size());
    return {.bytes = 8 * n, .operations = n, .bytes_in = 4 * n, .bytes_out = 4 * n};
  }
  ArrayShapes input_shapes(const Params& params) const override {
    return {{"x", {DType::f32, {static_cast<std::size_t>(params.integer("n"))}}}};
  }
  double host_bytes(const ArrayShapes& inputs, const Params&) const override { return 3 * total_bytes(inputs); }
};
LADDER_REGISTER_PROBLEM(ToyDouble);

// Both rungs double x into y; naive by index, serial by pointer.
class NaiveToyDouble final : public HostRung {
 public:
  explicit NaiveToyDouble(const RungContext&) {}
  void prepare(const Arrays& inputs, Arrays& outputs) override {
    x_ = inputs.at("x").view<float>();
    y_ = outputs.at("y").view<float>();
  }
  void compute() override {
    for (std::size_t i = 0; i < x_.size(); ++i) y_[i] = 2 * x_[i];
  }

 private:
  std::span<const float> x_;
  std::span<float> y_;
};
LADDER_REGISTER_RUNG(toy_double, naive, NaiveToyDouble);

class SerialToyDouble final : public HostRung {
 public:
  explicit SerialToyDouble(const RungContext&) {}
  void prepare(const Arrays& inputs, Arrays& outputs) override {
    x_ = inputs.at("x").view<float>().data();
    y_ = outputs.at("y").view<float>().data();
    n_ = inputs.at("x").size();
  }
  void compute() override {
    float* y = y_;
    for (const float* x = x_; x != x_ + n_; ++x, ++y) *y = 2 * *x;
  }

 private:
  const float* x_ = nullptr;
  float* y_ = nullptr;
  std::size_t n_ = 0;
};
LADDER_REGISTER_RUNG(toy_double, serial, SerialToyDouble);

}  // namespace
}  // namespace ladder
