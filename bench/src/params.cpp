#include "ladder/params.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "ladder/error.hpp"
#include "ladder/suggest.hpp"

namespace ladder {
namespace {

double parse_number(const std::string& name, const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(value))
    throw UsageError("parameter " + name + "=" + text + " is not a number");
  return value;
}

std::string format(double value) {
  std::ostringstream out;
  if (value == std::floor(value) && std::abs(value) < 1e15) out << std::fixed << std::setprecision(0);
  out << value;
  return out.str();
}

}  // namespace

std::int64_t Params::integer(const std::string& name) const {
  return static_cast<std::int64_t>(number(name));
}

double Params::number(const std::string& name) const { return parse_number(name, text(name)); }

const std::string& Params::text(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw UsageError("parameter " + name + " is missing");
  return it->second;
}

void Params::validate(const std::vector<ParamSpec>& specs, const std::string& exercise) const {
  for (const auto& [name, text] : values_) {
    const ParamSpec* spec = nullptr;
    for (const auto& candidate : specs)
      if (candidate.name == name) spec = &candidate;
    if (spec == nullptr) {
      std::string accepted;
      std::vector<std::string> names;
      for (const auto& candidate : specs) accepted += (accepted.empty() ? "" : ", ") + candidate.name, names.push_back(candidate.name);
      throw UsageError("unknown parameter '" + name + "' for " + exercise + did_you_mean(name, names) + " (accepted: " +
                       (accepted.empty() ? "none" : accepted) + ")");
    }
    if (!spec->choices.empty()) {
      if (std::find(spec->choices.begin(), spec->choices.end(), text) != spec->choices.end()) continue;
      std::string accepted;
      for (const auto& choice : spec->choices) accepted += (accepted.empty() ? "" : ", ") + choice;
      throw UsageError("parameter " + name + "=" + text + " is not one of " + exercise + "'s choices (accepted: " +
                       accepted + ")");
    }
    double value = parse_number(name, text);
    if (spec->integer && value != std::floor(value))
      throw UsageError("parameter " + name + "=" + text + " must be an integer");
    if (value < spec->min || value > spec->max)
      throw UsageError("parameter " + name + "=" + text + " is out of range for " + exercise + " (accepted: " +
                       format(spec->min) + " to " + format(spec->max) + ")");
  }
}

std::pair<std::string, std::string> split_assignment(const std::string& text, const std::string& what) {
  auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size())
    throw UsageError(what + " '" + text + "' must be NAME=VALUE");
  return {text.substr(0, equals), text.substr(equals + 1)};
}

}  // namespace ladder
