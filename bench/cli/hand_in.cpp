// A participant's results handed in to a class folder (hand_in.hpp).
#include "bench/cli/hand_in.hpp"

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "ladder/backends.hpp"
#include "ladder/error.hpp"
#include "ladder/openmp_target.hpp"  // host_cpu_model()

namespace ladder::cli {
namespace {

std::string from_environment(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

std::string login_name() {
  if (const passwd* entry = ::getpwuid(::geteuid()); entry != nullptr && entry->pw_name != nullptr)
    return entry->pw_name;
  std::string uid = "uid";
  uid += std::to_string(::geteuid());
  return uid;
}

std::string host_name() {
  std::array<char, 256> name{};
  if (::gethostname(name.data(), name.size() - 1) != 0) return "unknown-host";
  return name.data();
}

// A name that is one folder and one part of a file name: nothing a path could be made of.
bool plain_word(const std::string& name) {
  if (name.empty() || name.size() > 64 || name[0] == '.' || name[0] == '-') return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-')) return false;
  return true;
}

// FIPS 180-4's SHA-256, on bytes read a block at a time.
class Sha256 {
 public:
  void add(const unsigned char* data, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) {
      block_[filled_++] = data[i];
      if (filled_ == 64) compress(), filled_ = 0;
    }
    length_ += size;
  }
  std::string hex() {
    const std::uint64_t bits = length_ * 8;
    const unsigned char one = 0x80, zero = 0;
    add(&one, 1);
    while (filled_ != 56) add(&zero, 1);
    for (int shift = 56; shift >= 0; shift -= 8) {
      const auto byte = static_cast<unsigned char>(bits >> shift);
      add(&byte, 1);
    }
    std::ostringstream out;
    for (std::uint32_t word : state_) out << std::hex << std::setw(8) << std::setfill('0') << word;
    return out.str();
  }

 private:
  static std::uint32_t rotate(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
  void compress() {
    static constexpr std::array<std::uint32_t, 64> k = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
    std::array<std::uint32_t, 64> w{};
    for (int i = 0; i < 16; ++i)
      w[i] = std::uint32_t{block_[4 * i]} << 24 | std::uint32_t{block_[4 * i + 1]} << 16 |
             std::uint32_t{block_[4 * i + 2]} << 8 | std::uint32_t{block_[4 * i + 3]};
    for (int i = 16; i < 64; ++i) {
      const std::uint32_t s0 = rotate(w[i - 15], 7) ^ rotate(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const std::uint32_t s1 = rotate(w[i - 2], 17) ^ rotate(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    auto [a, b, c, d, e, f, g, h] = state_;
    for (int i = 0; i < 64; ++i) {
      const std::uint32_t t1 = h + (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
      const std::uint32_t t2 = (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    const std::array<std::uint32_t, 8> next = {a, b, c, d, e, f, g, h};
    for (int i = 0; i < 8; ++i) state_[i] += next[i];
  }
  std::array<std::uint32_t, 8> state_ = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                         0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::array<unsigned char, 64> block_{};
  std::size_t filled_ = 0;
  std::uint64_t length_ = 0;
};

std::string utc_now(const char* format) {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  std::ostringstream out;
  out << std::put_time(&utc, format);
  return out.str();
}

}  // namespace

std::optional<ClassFolder> class_folder(const Arguments& args, const std::string& track, std::string& why_not) {
  const std::string folder = args.flag("--class-folder") ? args.value("--class-folder")
                                                         : from_environment("LADDER_CLASS_FOLDER");
  if (folder.empty()) return std::nullopt;
  if (track != kExercisesTrack)
    throw UsageError("--class-folder hands in the exercises track's results: add --track exercises (the "
                     "solutions are the instructor's own)");
  std::string name = args.flag("--name") ? args.value("--name") : from_environment("LADDER_PARTICIPANT");
  if (name.empty()) name = login_name();
  if (!plain_word(name))
    throw UsageError("participant name '" + name + "': letters, digits, '.', '_' and '-' only, at most 64, not "
                     "starting with '.' or '-' (--name or LADDER_PARTICIPANT)");
  ClassFolder to{std::filesystem::path(folder) / name, name};
  // The instructor makes the class folder; each participant's subfolder is
  // theirs, readable by the group (the instructor), writable by them alone.
  std::error_code error;
  if (!std::filesystem::is_directory(folder, error)) {
    why_not = "no class folder " + folder + " (the instructor makes it: docs/usage.md, For instructors)";
    return to;
  }
  if (::mkdir(to.folder.c_str(), 0750) == 0) {
    // Whatever the umask, the instructor's group reads it; the setgid bit it
    // took from the class folder stays, so its files are the group's too.
    struct stat made {};
    ::stat(to.folder.c_str(), &made);
    ::chmod(to.folder.c_str(), 0750 | (made.st_mode & S_ISGID));
  } else if (errno != EEXIST) {
    why_not = "cannot make " + to.folder.string() + " (" + std::strerror(errno) + ")";
    return to;
  }
  if (::access(to.folder.c_str(), W_OK | X_OK) != 0) why_not = "cannot write to " + to.folder.string() + " (" +
                                                                 std::strerror(errno) + ")";
  return to;
}

std::string sha256_of_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read " + path.string());
  Sha256 hash;
  std::array<char, 1 << 16> buffer{};
  while (in) {
    in.read(buffer.data(), buffer.size());
    hash.add(reinterpret_cast<const unsigned char*>(buffer.data()), static_cast<std::size_t>(in.gcount()));
  }
  return hash.hex();
}

nlohmann::json rung_sources(const std::string& exercise, const std::string& rung) {
  // A Python rung's file may live in the folder LADDER_EXERCISES_PYTHON names (python_rung.cpp).
  const std::string python = from_environment("LADDER_EXERCISES_PYTHON");
  nlohmann::json sources = nlohmann::json::object();
  for (const std::string& root : {std::string(LADDER_EXERCISES_SOURCE_DIR), python}) {
    if (root.empty()) continue;
    const std::filesystem::path folder = std::filesystem::path(root) / exercise;
    std::error_code error;
    for (const auto& file : std::filesystem::directory_iterator(folder, error))
      if (file.is_regular_file() && file.path().stem() == rung)
        sources[exercise + "/" + file.path().filename().string()] = sha256_of_file(file.path());
    for (const auto& file : std::filesystem::directory_iterator(folder / "kernels", error))
      if (file.is_regular_file())
        sources[exercise + "/kernels/" + file.path().filename().string()] = sha256_of_file(file.path());
  }
  return sources;
}

nlohmann::json hand_in_context(const ClassFolder& to, const Arguments& args) {
  nlohmann::json gpus = nlohmann::json::array();
  for (const auto& device : cuda_devices()) gpus.push_back(device.value("name", std::string()));
  return {{"participant", to.participant},
          {"user", login_name()},
          {"time", utc_now("%Y-%m-%dT%H:%M:%SZ")},
          {"command_line", args.command_line},
          {"machine", {{"host", host_name()}, {"cpu", host_cpu_model()}, {"cuda_gpus", gpus}}},
          {"suite", {{"version", LADDER_VERSION}, {"git_revision", LADDER_GIT_REVISION}}}};
}

std::filesystem::path hand_in(const ClassFolder& to, const std::string& exercise, const std::string& command,
                              const nlohmann::json& result) {
  const std::string text = result.dump(1) + "\n";
  const std::string stem = exercise + "-" + command + "-" + utc_now("%Y%m%dT%H%M%SZ") + "-" + host_name() + "-" +
                           std::to_string(::getpid());
  std::string partial = ".";  // a hidden name: not a result until it is linked into place
  partial += stem;
  partial += ".partial";
  const std::filesystem::path temporary = to.folder / partial;
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0640);
  if (fd < 0) throw UsageError("cannot write " + temporary.string() + " (" + std::strerror(errno) + ")");
  ::fchmod(fd, 0640);  // whatever the umask: the group (the instructor) reads, no one else writes
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
  const int write_error = errno;
  ::close(fd);
  if (!written) {
    ::unlink(temporary.c_str());
    throw UsageError("cannot write " + temporary.string() + " (" + std::strerror(write_error) + ")");
  }
  // link() never replaces a file: a name taken (the same second, host and
  // process) gets the next number.
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name = stem;
    if (attempt > 0) name.append("-").append(std::to_string(attempt));
    name += ".json";
    const std::filesystem::path path = to.folder / name;
    if (::link(temporary.c_str(), path.c_str()) == 0) {
      ::unlink(temporary.c_str());
      return path;
    }
    if (errno != EEXIST) break;
  }
  const int link_error = errno;
  ::unlink(temporary.c_str());
  throw UsageError("cannot hand in to " + to.folder.string() + " (" + std::strerror(link_error) + ")");
}

}  // namespace ladder::cli
