#pragma once
// NumPy .npy files (format versions 1, 2 and 3; little-endian, C order),
// for `ladder solve`. Malformed files raise UsageError naming the file.
#include <cstdint>
#include <iosfwd>
#include <string>

#include "ladder/array.hpp"

namespace ladder {

Array read_npy(const std::string& path);

// The same from a stream of `available` bytes (the file's size), `name` in
// messages. The header is checked whole before anything is allocated: a
// shape of non-negative integers whose product and byte size do not
// overflow, and data of exactly that many bytes.
Array read_npy(std::istream& in, const std::string& name, std::uint64_t available);

// The header alone, checked as above: the dtype and shape the file holds,
// for predicting the memory a command needs before anything is allocated.
ArrayShape read_npy_shape(const std::string& path);
ArrayShape read_npy_header(std::istream& in, const std::string& name, std::uint64_t available);

// The header and the byte at which the data starts: enough for a process
// to read a part of the array itself (the data is contiguous, C order).
struct NpyLayout {
  ArrayShape array;
  std::uint64_t data_offset = 0;
};
NpyLayout read_npy_layout(const std::string& path);

// Writes through a temporary file renamed into place, so a failure never
// leaves a half-written output behind.
void write_npy(const std::string& path, const Array& array);

// The same all-or-nothing write for text outputs (results JSON, CSV). An
// existing target must be a regular file (not a directory, device or
// symbolic link); on failure it is left as it was, and the message carries
// the system's reason.
void write_file_atomically(const std::string& path, const std::string& text);
void refuse_unless_replaceable(const std::string& path);

// While alive, `path` (a temporary file or an empty folder) is removed if
// the program is interrupted (SIGINT, SIGTERM): nothing half-written stays.
class TemporaryPath {
 public:
  explicit TemporaryPath(const std::string& path);
  ~TemporaryPath();
  TemporaryPath(const TemporaryPath&) = delete;
  TemporaryPath& operator=(const TemporaryPath&) = delete;

 private:
  int slot_ = -1;
};

}  // namespace ladder
