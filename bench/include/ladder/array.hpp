#pragma once
// Array: a typed, shaped, page-aligned host buffer. Inputs and outputs of
// every exercise are Arrays, keyed by name (the input names of its specification, bench/problems/<ex>/README.md).
// After the data, up to the next page and at least kGuardBytes, lies a guard
// zone filled with a pattern: guard_overrun() tells a rung that wrote past
// the end of its output (a loop to <= n) from one that did not.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ladder {

enum class DType { u8, u16, i32, u32, i64, f32, f64 };

std::size_t dtype_size(DType dtype);
std::string dtype_name(DType dtype);  // NumPy's names: "uint8", "float32", ...

template <class T> constexpr DType dtype_of();
template <> constexpr DType dtype_of<std::uint8_t>() { return DType::u8; }
template <> constexpr DType dtype_of<std::uint16_t>() { return DType::u16; }
template <> constexpr DType dtype_of<std::int32_t>() { return DType::i32; }
template <> constexpr DType dtype_of<std::uint32_t>() { return DType::u32; }
template <> constexpr DType dtype_of<std::int64_t>() { return DType::i64; }
template <> constexpr DType dtype_of<float>() { return DType::f32; }
template <> constexpr DType dtype_of<double>() { return DType::f64; }

class Array {
 public:
  Array() = default;
  Array(DType dtype, std::vector<std::size_t> shape);  // zero-filled
  Array(const Array& other);  // a deep copy
  Array& operator=(const Array& other);
  Array(Array&&) noexcept = default;
  Array& operator=(Array&&) noexcept = default;

  DType dtype() const { return dtype_; }
  const std::vector<std::size_t>& shape() const { return shape_; }
  std::size_t size() const;  // number of elements
  std::size_t bytes() const { return size() * dtype_size(dtype_); }
  std::string describe() const;  // e.g. "float32 array of shape (1000,)"

  // How far past the end of the data the farthest write into the guard
  // zone reached, in bytes (1: the byte just after the data); 0 where the
  // guard is intact. Only as far as the guard zone reaches.
  std::size_t guard_overrun() const;
  std::size_t guard_bytes() const { return storage_ ? capacity_ - bytes() : 0; }
  static constexpr std::size_t kGuardBytes = 256;
  static constexpr std::byte kGuardPattern{0xFD};

  std::byte* raw() { return storage_.get(); }
  const std::byte* raw() const { return storage_.get(); }

  // Typed views; throw std::logic_error when T does not match the dtype.
  template <class T> std::span<T> view() {
    expect(dtype_of<T>());
    return {reinterpret_cast<T*>(raw()), size()};
  }
  template <class T> std::span<const T> view() const {
    expect(dtype_of<T>());
    return {reinterpret_cast<const T*>(raw()), size()};
  }

 private:
  void expect(DType wanted) const;
  struct Free {
    void operator()(std::byte* p) const;
  };
  DType dtype_ = DType::u8;
  std::vector<std::size_t> shape_;
  std::size_t capacity_ = 0;  // bytes allocated: the data, then the guard zone
  std::unique_ptr<std::byte[], Free> storage_;
};

using Arrays = std::map<std::string, Array>;

// An array's dtype and shape without its data: what generate() will make,
// or what a .npy header claims. bytes() is a double, so that the product
// of a huge claimed shape cannot wrap before it is compared with memory.
struct ArrayShape {
  DType dtype = DType::u8;
  std::vector<std::size_t> shape;
  double size() const;  // number of elements
  double bytes() const { return size() * static_cast<double>(dtype_size(dtype)); }
};
using ArrayShapes = std::map<std::string, ArrayShape>;
double total_bytes(const ArrayShapes& arrays);

// 64-bit checksum of an array's bytes (FNV-1a over 64-bit words), recorded
// in the results so that two machines can show they saw the same input.
std::uint64_t checksum(const Array& array);
std::uint64_t checksum(const std::byte* bytes, std::size_t size);  // the same of any bytes

}  // namespace ladder
