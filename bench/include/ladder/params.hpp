#pragma once
// Parameters of an exercise: named values with a declared range. Sizes are
// named presets of parameters; `--param k=v` overrides any of them.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ladder {

struct ParamSpec {
  std::string name;
  std::string description;
  double min = 0;
  double max = 0;
  bool integer = true;
  // Sets the size of generated inputs only; `solve` takes it from the files.
  bool generator_only = false;
  // A named choice (e.g. distribution: uniform | skewed) instead of a number.
  std::vector<std::string> choices = {};
};

struct SizePreset {
  std::string name;
  std::map<std::string, std::string> values;
};

class Params {
 public:
  Params() = default;
  explicit Params(std::map<std::string, std::string> values) : values_(std::move(values)) {}

  void set(const std::string& name, const std::string& value) { values_[name] = value; }
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  const std::map<std::string, std::string>& values() const { return values_; }

  std::int64_t integer(const std::string& name) const;
  double number(const std::string& name) const;
  // The value, or `fallback` where it is not given (e.g. before `solve` has validated).
  double number_or(const std::string& name, double fallback) const { return has(name) ? number(name) : fallback; }
  const std::string& text(const std::string& name) const;

  // Checks every value against the specs: known name, number, in range.
  void validate(const std::vector<ParamSpec>& specs, const std::string& exercise) const;

 private:
  std::map<std::string, std::string> values_;
};

// Parses "KEY=VALUE"; throws UsageError naming `what` when malformed.
std::pair<std::string, std::string> split_assignment(const std::string& text, const std::string& what);

}  // namespace ladder
