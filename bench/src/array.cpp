#include "ladder/array.hpp"

#include <cstdlib>
#include <cstring>
#include <new>
#include <sstream>
#include <stdexcept>

#include "ladder/ceil_div.hpp"

namespace ladder {

std::size_t dtype_size(DType dtype) {
  switch (dtype) {
    case DType::u8: return 1;
    case DType::u16: return 2;
    case DType::i32:
    case DType::u32:
    case DType::f32: return 4;
    case DType::i64:
    case DType::f64: return 8;
  }
  return 0;
}

std::string dtype_name(DType dtype) {
  switch (dtype) {
    case DType::u8: return "uint8";
    case DType::u16: return "uint16";
    case DType::i32: return "int32";
    case DType::u32: return "uint32";
    case DType::i64: return "int64";
    case DType::f32: return "float32";
    case DType::f64: return "float64";
  }
  return "?";
}

// Page-aligned so that CUDA can pin the buffer in place (cudaHostRegister)
// and vector loads never straddle a page needlessly.
constexpr std::size_t kAlignment = 4096;

Array::Array(DType dtype, std::vector<std::size_t> shape) : dtype_(dtype), shape_(std::move(shape)) {
  const std::size_t bytes = this->bytes();
  // At least kGuardBytes of guard, even where the data fills whole pages.
  capacity_ = round_up(bytes + kGuardBytes, kAlignment);
  auto* p = static_cast<std::byte*>(std::aligned_alloc(kAlignment, capacity_));
  if (p == nullptr) throw std::bad_alloc();
  std::memset(p, 0, bytes);
  std::memset(p + bytes, static_cast<int>(kGuardPattern), capacity_ - bytes);
  storage_.reset(p);
}

Array::Array(const Array& other) : Array(other.dtype_, other.shape_) {
  std::memcpy(raw(), other.raw(), bytes());
}

Array& Array::operator=(const Array& other) {
  if (this != &other) *this = Array(other);
  return *this;
}

void Array::Free::operator()(std::byte* p) const { std::free(p); }

std::size_t Array::size() const {
  std::size_t n = 1;
  for (std::size_t extent : shape_) n *= extent;
  return n;
}

double ArrayShape::size() const {
  double n = 1;
  for (std::size_t extent : shape) n *= static_cast<double>(extent);
  return n;
}

double total_bytes(const ArrayShapes& arrays) {
  double bytes = 0;
  for (const auto& [name, array] : arrays) bytes += array.bytes();
  return bytes;
}

std::size_t Array::guard_overrun() const {
  const std::byte* guard = raw() + bytes();
  for (std::size_t i = guard_bytes(); i > 0; --i)
    if (guard[i - 1] != kGuardPattern) return i;
  return 0;
}

std::string Array::describe() const {
  std::ostringstream out;
  out << dtype_name(dtype_) << " array of shape (";
  for (std::size_t i = 0; i < shape_.size(); ++i) out << (i ? ", " : "") << shape_[i];
  out << (shape_.size() == 1 ? ",)" : ")");
  return out.str();
}

void Array::expect(DType wanted) const {
  if (wanted != dtype_)
    throw std::logic_error("array of " + dtype_name(dtype_) + " viewed as " + dtype_name(wanted));
}

std::uint64_t checksum(const Array& array) { return checksum(array.raw(), array.bytes()); }

std::uint64_t checksum(const std::byte* p, std::size_t bytes) {
  constexpr std::uint64_t kPrime = 0x100000001b3ull;
  std::uint64_t hash = 0xcbf29ce484222325ull;
  std::size_t words = bytes / 8;
  for (std::size_t i = 0; i < words; ++i) {
    std::uint64_t word;
    std::memcpy(&word, p + 8 * i, 8);
    hash = (hash ^ word) * kPrime;
  }
  for (std::size_t i = 8 * words; i < bytes; ++i) hash = (hash ^ static_cast<std::uint64_t>(p[i])) * kPrime;
  return hash;
}

}  // namespace ladder
