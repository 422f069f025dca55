#include "ladder/npy.hpp"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <unistd.h>

#include "ladder/error.hpp"

namespace ladder {
namespace {

const char kMagic[] = "\x93NUMPY";

[[noreturn]] void malformed(const std::string& path, const std::string& why) {
  throw UsageError(path + ": not a valid .npy file: " + why);
}

DType parse_descr(const std::string& path, const std::string& descr) {
  // One-byte types may be written with '|' (NumPy's habit) or '<'.
  if (descr == "|u1" || descr == "<u1") return DType::u8;
  if (descr == "|b1") return DType::u8;  // NumPy's bool is one byte, 0 or 1: a mask saved as it comes
  if (descr == "<u2") return DType::u16;
  if (descr == "<i4") return DType::i32;
  if (descr == "<u4") return DType::u32;
  if (descr == "<i8") return DType::i64;
  if (descr == "<f4") return DType::f32;
  if (descr == "<f8") return DType::f64;
  if (!descr.empty() && descr[0] == '>')
    throw UsageError(path + ": big-endian data ('" + descr + "') is not supported; save it little-endian");
  throw UsageError(path + ": dtype '" + descr +
                   "' is not supported (accepted: bool, uint8, uint16, int32, uint32, int64, float32, float64)");
}

std::string descr_of(DType dtype) {
  switch (dtype) {
    case DType::u8: return "|u1";
    case DType::u16: return "<u2";
    case DType::i32: return "<i4";
    case DType::u32: return "<u4";
    case DType::i64: return "<i8";
    case DType::f32: return "<f4";
    case DType::f64: return "<f8";
  }
  return "";
}

}  // namespace

Array read_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(path + ": cannot open file (" + std::strerror(errno) + ")");
  char magic[6];
  unsigned char version[2];
  if (!in.read(magic, 6) || std::memcmp(magic, kMagic, 6) != 0) malformed(path, "missing the \\x93NUMPY magic");
  if (!in.read(reinterpret_cast<char*>(version), 2)) malformed(path, "truncated header");
  std::size_t header_length = 0;
  if (version[0] == 1) {
    unsigned char len[2];
    if (!in.read(reinterpret_cast<char*>(len), 2)) malformed(path, "truncated header");
    header_length = len[0] | (len[1] << 8);
  } else if (version[0] == 2 || version[0] == 3) {
    unsigned char len[4];
    if (!in.read(reinterpret_cast<char*>(len), 4)) malformed(path, "truncated header");
    header_length = len[0] | (len[1] << 8) | (len[2] << 16) | (static_cast<std::size_t>(len[3]) << 24);
  } else {
    malformed(path, "format version " + std::to_string(version[0]) + " is unknown");
  }
  if (header_length > (1u << 20)) malformed(path, "header too long");
  std::string header(header_length, '\0');
  if (!in.read(header.data(), static_cast<std::streamsize>(header_length))) malformed(path, "truncated header");

  std::smatch match;
  if (!std::regex_search(header, match, std::regex(R"('descr'\s*:\s*'([^']*)')")))
    malformed(path, "header has no 'descr'");
  DType dtype = parse_descr(path, match[1]);
  if (!std::regex_search(header, match, std::regex(R"('fortran_order'\s*:\s*(True|False))")))
    malformed(path, "header has no 'fortran_order'");
  if (match[1] == "True") throw UsageError(path + ": Fortran-ordered arrays are not supported; save with C order");
  if (!std::regex_search(header, match, std::regex(R"('shape'\s*:\s*\(([^)]*)\))")))
    malformed(path, "header has no 'shape'");
  std::vector<std::size_t> shape;
  std::string dims = match[1];
  std::regex number(R"(\s*(\d+)\s*(,|$))");
  for (auto it = std::sregex_iterator(dims.begin(), dims.end(), number); it != std::sregex_iterator(); ++it)
    shape.push_back(std::stoull((*it)[1]));

  Array array(dtype, shape);
  if (!in.read(reinterpret_cast<char*>(array.raw()), static_cast<std::streamsize>(array.bytes())))
    malformed(path, "data is shorter than the header's shape " + array.describe());
  in.peek();
  if (!in.eof()) malformed(path, "data is longer than the header's shape " + array.describe());
  return array;
}

void write_file_atomically(const std::string& path, const std::string& bytes) {
  std::filesystem::path target(path);
  std::filesystem::path temporary = target;
  temporary += ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw UsageError(path + ": cannot write (" + std::strerror(errno) + ")");
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw UsageError(path + ": write failed (disk full?)");
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, target, error);
  if (error) {
    std::filesystem::remove(temporary, error);
    throw UsageError(path + ": cannot write (" + error.message() + ")");
  }
}

void write_npy(const std::string& path, const Array& array) {
  std::ostringstream header;
  header << "{'descr': '" << descr_of(array.dtype()) << "', 'fortran_order': False, 'shape': (";
  for (std::size_t i = 0; i < array.shape().size(); ++i) header << array.shape()[i] << ", ";
  std::string text = header.str();
  if (array.shape().size() > 1) text.resize(text.size() - 2);  // (3, 4) but (3,)
  else if (array.shape().size() == 1) text.resize(text.size() - 1);
  text += "), }";
  // Version 1.0: magic, version, 2-byte length; data aligned to 64 bytes.
  std::size_t unpadded = 10 + text.size() + 1;
  text.append((64 - unpadded % 64) % 64, ' ');
  text += '\n';
  std::string bytes(kMagic, 6);
  bytes += '\x01';
  bytes += '\x00';
  bytes += static_cast<char>(text.size() & 0xff);
  bytes += static_cast<char>(text.size() >> 8);
  bytes += text;
  bytes.append(reinterpret_cast<const char*>(array.raw()), array.bytes());
  write_file_atomically(path, bytes);
}

}  // namespace ladder
