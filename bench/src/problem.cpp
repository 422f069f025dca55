#include "ladder/problem.hpp"

#include <cstring>
#include <sstream>

#include "ladder/error.hpp"
#include "ladder/suggest.hpp"
#include "ladder/npy.hpp"

namespace ladder {
namespace {

std::string element_text(const Array& array, std::size_t i) {
  std::ostringstream out;
  out.precision(9);
  switch (array.dtype()) {
    case DType::u8: out << +array.view<std::uint8_t>()[i]; break;
    case DType::u16: out << array.view<std::uint16_t>()[i]; break;
    case DType::i32: out << array.view<std::int32_t>()[i]; break;
    case DType::u32: out << array.view<std::uint32_t>()[i]; break;
    case DType::i64: out << array.view<std::int64_t>()[i]; break;
    case DType::f32: out << array.view<float>()[i]; break;
    case DType::f64: out << array.view<double>()[i]; break;
  }
  return out.str();
}

}  // namespace

Params Problem::resolve(const std::string& size, const Params& overrides) const {
  const auto presets = sizes();
  const SizePreset* preset = nullptr;
  std::string accepted;
  std::vector<std::string> names;
  for (const auto& candidate : presets) {
    if (candidate.name == size) preset = &candidate;
    accepted += (accepted.empty() ? "" : ", ") + candidate.name;
    names.push_back(candidate.name);
  }
  if (preset == nullptr)
    throw UsageError("unknown size '" + size + "'" + did_you_mean(size, names) + " (accepted: " + accepted + ")");
  Params params(preset->values);
  for (const auto& [key, value] : overrides.values()) params.set(key, value);
  params.validate(this->params(), name());
  return params;
}

void Problem::save(const std::string& path, const Arrays& outputs, const Arrays&, const Params&) const {
  if (outputs.size() != 1) throw std::logic_error(name() + " has several outputs: it must override Problem::save");
  write_npy(path, outputs.begin()->second);
}

namespace {

// Where element `flat` of an array of this shape is, as a reader of an
// image finds it: "index i" in a vector, "(row r, column c)" in an image,
// "(frame f, row r, column c)" in a stack.
std::string position_text(const std::vector<std::size_t>& shape, std::size_t flat) {
  if (shape.size() < 2 || shape.size() > 3) return "index " + std::to_string(flat);
  const std::size_t columns = shape.back(), rows = shape[shape.size() - 2];
  const std::string row_column =
      "row " + std::to_string(flat / columns % rows) + ", column " + std::to_string(flat % columns);
  if (shape.size() == 2) return "at (" + row_column + ")";
  return "at (frame " + std::to_string(flat / (columns * rows)) + ", " + row_column + ")";
}

}  // namespace

CheckResult check_identical(const Arrays& got, const Arrays& expected) {
  CheckResult result;
  std::size_t total_mismatches = 0;
  for (const auto& [name, want] : expected) {
    auto it = got.find(name);
    if (it == got.end()) {
      result.detail = "output '" + name + "' is missing";
      return result;
    }
    const Array& have = it->second;
    if (have.dtype() != want.dtype() || have.shape() != want.shape()) {
      result.detail = "output '" + name + "' is a " + have.describe() + ", expected a " + want.describe();
      return result;
    }
    const std::size_t width = dtype_size(want.dtype());
    std::size_t mismatches = 0;
    std::size_t first = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
      if (std::memcmp(have.raw() + i * width, want.raw() + i * width, width) != 0) {
        if (mismatches++ == 0) first = i;
      }
    }
    if (mismatches > 0 && result.detail.empty())
      result.detail = "output '" + name + "' " + position_text(want.shape(), first) + ": expected " +
                      element_text(want, first) + ", got " + element_text(have, first) + " (" +
                      std::to_string(mismatches) + " of " + std::to_string(want.size()) + " differ)";
    total_mismatches += mismatches;
  }
  result.ok = total_mismatches == 0;
  if (result.ok) result.detail = "identical";
  result.figures = {{"comparison", "bit-exact"}, {"mismatches", total_mismatches}};
  return result;
}

}  // namespace ladder
