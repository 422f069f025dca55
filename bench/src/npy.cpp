#include "ladder/npy.hpp"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string_view>
#include <csignal>
#include <fcntl.h>
#include <sys/stat.h>
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

// One dimension of the header's shape: digits only (no sign, no 'L'), and
// small enough that no product of them can wrap.
std::size_t parse_dimension(const std::string& name, const std::string& token) {
  std::size_t first = token.find_first_not_of(" \t"), last = token.find_last_not_of(" \t");
  std::string digits = first == std::string::npos ? "" : token.substr(first, last - first + 1);
  if (digits.empty() || digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos)
    malformed(name, "shape entry '" + token + "' is not a non-negative integer below 10^18");
  return std::stoull(digits);
}

}  // namespace

ArrayShape read_npy_header(std::istream& in, const std::string& name, std::uint64_t available) {
  char magic[6];
  unsigned char version[2];
  if (!in.read(magic, 6) || std::memcmp(magic, kMagic, 6) != 0) malformed(name, "missing the \\x93NUMPY magic");
  if (!in.read(reinterpret_cast<char*>(version), 2)) malformed(name, "truncated header");
  std::size_t header_length = 0, preamble = 10;
  if (version[0] == 1) {
    unsigned char len[2];
    if (!in.read(reinterpret_cast<char*>(len), 2)) malformed(name, "truncated header");
    header_length = len[0] | (len[1] << 8);
  } else if (version[0] == 2 || version[0] == 3) {
    unsigned char len[4];
    if (!in.read(reinterpret_cast<char*>(len), 4)) malformed(name, "truncated header");
    header_length = len[0] | (len[1] << 8) | (len[2] << 16) | (static_cast<std::size_t>(len[3]) << 24);
    preamble = 12;
  } else {
    malformed(name, "format version " + std::to_string(version[0]) + " is unknown");
  }
  if (header_length > (1u << 20)) malformed(name, "header too long");
  if (preamble + header_length > available) malformed(name, "truncated header");
  std::string header(header_length, '\0');
  if (!in.read(header.data(), static_cast<std::streamsize>(header_length))) malformed(name, "truncated header");

  // Compiled once: building a std::regex costs far more than matching it.
  static const std::regex descr_pattern(R"('descr'\s*:\s*'([^']*)')");
  static const std::regex order_pattern(R"('fortran_order'\s*:\s*(True|False))");
  static const std::regex shape_pattern(R"('shape'\s*:\s*\(([^)]*)\))");
  std::smatch match;
  if (!std::regex_search(header, match, descr_pattern))
    malformed(name, "header has no 'descr'");
  DType dtype = parse_descr(name, match[1]);
  if (!std::regex_search(header, match, order_pattern))
    malformed(name, "header has no 'fortran_order'");
  if (match[1] == "True") throw UsageError(name + ": Fortran-ordered arrays are not supported; save with C order");
  if (!std::regex_search(header, match, shape_pattern))
    malformed(name, "header has no 'shape'");

  // The shape, its element count and byte size, each checked before any
  // allocation: a header may claim anything, the file holds what it holds.
  std::vector<std::size_t> shape;
  std::string dims = match[1];
  std::size_t count = 1;
  std::stringstream tokens(dims);
  for (std::string token; std::getline(tokens, token, ',');) {
    if (token.find_first_not_of(" \t") == std::string::npos && tokens.eof()) break;  // the trailing comma of (3,)
    shape.push_back(parse_dimension(name, token));
    if (__builtin_mul_overflow(count, shape.back(), &count)) malformed(name, "shape (" + dims + ") overflows");
  }
  if (shape.size() > 32) malformed(name, "more than 32 dimensions");
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(count, dtype_size(dtype), &bytes)) malformed(name, "shape (" + dims + ") overflows");
  const std::uint64_t data = available - preamble - header_length;
  if (bytes != data)
    malformed(name, "the header's shape (" + dims + ") of " + dtype_name(dtype) + " needs " + std::to_string(bytes) +
                        " bytes of data, the file holds " + std::to_string(data));

  return {dtype, shape};
}

Array read_npy(std::istream& in, const std::string& name, std::uint64_t available) {
  const ArrayShape header = read_npy_header(in, name, available);
  Array array(header.dtype, header.shape);
  if (!in.read(reinterpret_cast<char*>(array.raw()), static_cast<std::streamsize>(array.bytes())))
    malformed(name, "data is shorter than the header's shape " + array.describe());
  return array;
}

namespace {

// Opens `path` for reading and tells its size, or says why not.
std::ifstream open_npy(const std::string& path, std::uint64_t& size) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) throw UsageError(path + ": is a directory, not a .npy file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(path + ": cannot open file (" + std::strerror(errno) + ")");
  in.seekg(0, std::ios::end);
  const std::streamoff end = in.tellg();
  in.seekg(0, std::ios::beg);
  if (end < 0) throw UsageError(path + ": cannot tell the file's size (not a regular file?)");
  size = static_cast<std::uint64_t>(end);
  return in;
}

}  // namespace

Array read_npy(const std::string& path) {
  std::uint64_t size = 0;
  std::ifstream in = open_npy(path, size);
  return read_npy(in, path, size);
}

ArrayShape read_npy_shape(const std::string& path) { return read_npy_layout(path).array; }

NpyLayout read_npy_layout(const std::string& path) {
  std::uint64_t size = 0;
  std::ifstream in = open_npy(path, size);
  NpyLayout layout{read_npy_header(in, path, size), 0};
  layout.data_offset = static_cast<std::uint64_t>(in.tellg());  // the header read to its end: the data is next
  return layout;
}

namespace {

// The temporary files and folders this process is writing, removed if
// SIGINT or SIGTERM arrives before they are renamed into place. Fixed
// buffers: a signal handler may only call async-signal-safe functions.
constexpr int kMaxTemporaries = 8;
char g_temporaries[kMaxTemporaries][4096];

extern "C" void remove_temporaries_and_die(int signal_number) {
  for (auto& path : g_temporaries)  // files first, then the folders they were in
    if (path[0] != '\0') ::unlink(path);
  for (auto& path : g_temporaries)
    if (path[0] != '\0') ::rmdir(path);
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);
}

}  // namespace

TemporaryPath::TemporaryPath(const std::string& path) {
  static const bool installed = [] {
    ::signal(SIGINT, remove_temporaries_and_die);
    ::signal(SIGTERM, remove_temporaries_and_die);
    return true;
  }();
  (void)installed;
  if (path.size() >= sizeof g_temporaries[0]) throw UsageError(path + ": path too long");
  for (int i = 0; i < kMaxTemporaries; ++i) {
    if (g_temporaries[i][0] == '\0') {
      std::memcpy(g_temporaries[i], path.c_str(), path.size() + 1);
      slot_ = i;
      return;
    }
  }
}

TemporaryPath::~TemporaryPath() {
  if (slot_ >= 0) g_temporaries[slot_][0] = '\0';
}

void refuse_unless_replaceable(const std::string& path) {
  struct stat status{};
  if (::lstat(path.c_str(), &status) != 0) return;  // not there yet: fine
  if (S_ISLNK(status.st_mode))
    throw UsageError(path + ": is a symbolic link; ladder replaces regular files only (give the path it points to)");
  if (S_ISDIR(status.st_mode)) throw UsageError(path + ": is a directory; give a file name");
  if (!S_ISREG(status.st_mode)) throw UsageError(path + ": is not a regular file (a device or a pipe?); give a file name");
}

namespace {

// Writes the pieces one after another into a temporary file beside `path`,
// then renames it into place. Pieces, so that an array's data is written
// from where it lies and never copied (a copy would double the memory a
// large output needs).
void write_pieces_atomically(const std::string& path, std::initializer_list<std::string_view> pieces) {
  refuse_unless_replaceable(path);
  const std::string temporary = path + ".tmp" + std::to_string(::getpid());
  TemporaryPath cleanup(temporary);
  // POSIX calls, so that the error that stopped the write reaches the message.
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw UsageError(path + ": cannot write (" + std::strerror(errno) + ")");
  int error = 0;
  for (std::string_view bytes : pieces) {
    std::size_t written = 0;
    while (error == 0 && written < bytes.size()) {
      ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error = n < 0 ? errno : ENOSPC;
        break;
      }
      written += static_cast<std::size_t>(n);
    }
  }
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && ::rename(temporary.c_str(), path.c_str()) != 0) error = errno;
  if (error != 0) {
    ::unlink(temporary.c_str());  // the user's previous file, if any, is untouched
    throw UsageError(path + ": cannot write (" + std::strerror(error) + ")");
  }
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& bytes) {
  write_pieces_atomically(path, {bytes});
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
  std::string header_bytes(kMagic, 6);
  header_bytes += '\x01';
  header_bytes += '\x00';
  header_bytes += static_cast<char>(text.size() & 0xff);
  header_bytes += static_cast<char>(text.size() >> 8);
  header_bytes += text;
  write_pieces_atomically(path, {header_bytes, {reinterpret_cast<const char*>(array.raw()), array.bytes()}});
}

}  // namespace ladder
