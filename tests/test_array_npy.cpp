// .npy reading and writing: round trips for every dtype and rank, and a
// clear UsageError for every kind of malformed file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "ladder/error.hpp"
#include "ladder/npy.hpp"
#include "ladder/random.hpp"

namespace ladder {
namespace {

namespace fs = std::filesystem;

class NpyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = fs::temp_directory_path() /
                 ("ladder_npy_" + std::to_string(::getpid()) + "_" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }
  std::string path(const std::string& name) const { return (directory_ / name).string(); }
  void write_bytes(const std::string& name, const std::string& bytes) const {
    std::ofstream(path(name), std::ios::binary) << bytes;
  }
  // A version-1 header for `dict`, padded as NumPy pads it.
  static std::string header(const std::string& dict) {
    std::string text = dict;
    std::size_t unpadded = 10 + text.size() + 1;
    text.append((64 - unpadded % 64) % 64, ' ');
    text += '\n';
    std::string bytes = "\x93NUMPY";
    bytes += '\x01';
    bytes += '\x00';
    bytes += static_cast<char>(text.size() & 0xff);
    bytes += static_cast<char>(text.size() >> 8);
    return bytes + text;
  }
  void expect_refused(const std::string& name, const std::string& fragment) const {
    try {
      read_npy(path(name));
      FAIL() << "read_npy accepted " << name;
    } catch (const UsageError& error) {
      EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
      EXPECT_NE(std::string(error.what()).find(name), std::string::npos) << "message should name the file";
    }
  }
  // A header's dictionary as NumPy writes it.
  static std::string dict(const std::string& descr, const std::string& shape, bool fortran = false) {
    return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape +
           ", }";
  }
  // A file of that header and `data`, which read_npy must refuse saying `fragment`.
  void expect_file_refused(const std::string& name, const std::string& dictionary, const std::string& data,
                           const std::string& fragment) const {
    write_bytes(name, header(dictionary) + data);
    expect_refused(name, fragment);
  }
  fs::path directory_;
};

Array random_array(DType dtype, std::vector<std::size_t> shape, std::uint64_t seed) {
  Array array(dtype, std::move(shape));
  CounterRng rng(seed, 0);
  for (std::size_t i = 0; i < array.bytes(); ++i) array.raw()[i] = static_cast<std::byte>(rng.bits(i));
  return array;
}

TEST_F(NpyTest, RoundTripsEveryDtypeAndRank) {
  const std::vector<std::vector<std::size_t>> shapes = {{1}, {17}, {3, 5}, {2, 3, 7}, {0}};
  for (DType dtype : {DType::u8, DType::u16, DType::i32, DType::u32, DType::i64, DType::f32, DType::f64}) {
    for (const auto& shape : shapes) {
      Array written = random_array(dtype, shape, 7);
      write_npy(path("a.npy"), written);
      Array read = read_npy(path("a.npy"));
      EXPECT_EQ(read.dtype(), dtype);
      EXPECT_EQ(read.shape(), shape);
      EXPECT_EQ(std::memcmp(read.raw(), written.raw(), written.bytes()), 0) << written.describe();
    }
  }
}

TEST_F(NpyTest, DataStartsOnA64ByteBoundary) {
  write_npy(path("a.npy"), random_array(DType::f32, {5}, 1));
  EXPECT_EQ(fs::file_size(path("a.npy")) - 5 * 4, 128u);
}

TEST_F(NpyTest, ReadsVersionTwoHeadersAndPipeTypes) {
  std::string v1 = header("{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }");
  std::string dict = v1.substr(10);
  std::string v2 = "\x93NUMPY";
  v2 += '\x02';
  v2 += '\x00';
  v2 += static_cast<char>(dict.size() & 0xff);
  v2 += static_cast<char>(dict.size() >> 8);
  v2 += std::string(2, '\0');
  write_bytes("v2.npy", v2 + dict + "abc");
  Array read = read_npy(path("v2.npy"));
  EXPECT_EQ(read.describe(), "uint8 array of shape (3,)");
  EXPECT_EQ(static_cast<char>(read.raw()[2]), 'c');
}

TEST_F(NpyTest, RefusesAMissingFile) { expect_refused("absent.npy", "cannot open"); }

TEST_F(NpyTest, RefusesAFileWithoutTheMagic) {
  write_bytes("text.npy", "hello, this is not numpy");
  expect_refused("text.npy", "magic");
}

TEST_F(NpyTest, RefusesTruncatedData) {
  expect_file_refused("short.npy", dict("<f4", "(4,)"), "12345678", "needs 16 bytes of data, the file holds 8");
}

TEST_F(NpyTest, RefusesTrailingData) {
  expect_file_refused("long.npy", dict("<f4", "(1,)"), "12345678", "needs 4 bytes of data, the file holds 8");
}

TEST_F(NpyTest, RefusesFortranOrder) {
  expect_file_refused("f.npy", dict("<f4", "(1, 1)", true), "1234", "Fortran");
}

TEST_F(NpyTest, RefusesBigEndian) { expect_file_refused("be.npy", dict(">f4", "(1,)"), "1234", "big-endian"); }

TEST_F(NpyTest, ReadsBooleansAsUint8) {
  write_bytes("bool.npy", header("{'descr': '|b1', 'fortran_order': False, 'shape': (2, 2), }") +
                              std::string("\x01\x00\x00\x01", 4));
  Array read = read_npy(path("bool.npy"));
  EXPECT_EQ(read.describe(), "uint8 array of shape (2, 2)");
  EXPECT_EQ(read.view<std::uint8_t>()[0], 1);
  EXPECT_EQ(read.view<std::uint8_t>()[1], 0);
  EXPECT_EQ(read.view<std::uint8_t>()[3], 1);
}

TEST_F(NpyTest, RefusesUnsupportedDtypesNamingTheAcceptedOnes) {
  expect_file_refused("c.npy", dict("<c8", "(1,)"), "12345678", "accepted: bool, uint8");
}

TEST_F(NpyTest, RefusesShapesThatWrapPast64Bits) {
  // The product of (3, 2, 2^63 + 1) wraps to a few bytes; so does 2^32 x 2^32.
  expect_file_refused("wrap.npy", dict("<f4", "(3, 2, 9223372036854775809)"), "123456789012",
                      "not a non-negative integer below 10^18");
  expect_file_refused("wrap2.npy", dict("<u2", "(4294967296, 4294967296)"), "", "overflows");
  expect_file_refused("wrap3.npy", dict("<f8", "(576460752303423488, 64)"), "", "overflows");
}

TEST_F(NpyTest, RefusesNegativeAndMalformedDimensions) {
  for (const char* shape : {"(-12,)", "(12L,)", "(1.5,)", "(,)", "(3,,4)", "(0x10,)"}) {
    expect_file_refused("dims.npy", dict("<f4", shape), std::string(48, '\0'), "is not a non-negative integer");
  }
}

TEST_F(NpyTest, RefusesAHugeShapeBeforeAllocatingIt) {
  // 2^40 float32 elements backed by 48 bytes: refused from the header and the file's size alone.
  expect_file_refused("huge.npy", dict("<f4", "(1099511627776,)"), std::string(48, '\0'),
                      "needs 4398046511104 bytes of data, the file holds 48");
}

// The memory check reads the header alone: a 1 TiB array (a sparse file,
// its size matching the header's claim) is described, not read.
TEST_F(NpyTest, ReadsTheShapeFromTheHeaderAloneCheckedAsAWholeRead) {
  const std::string claim = header("{'descr': '<u2', 'fortran_order': False, 'shape': (1024, 1048576, 512), }");
  write_bytes("huge.npy", claim);
  fs::resize_file(path("huge.npy"), claim.size() + (std::uintmax_t{1} << 40));
  const ArrayShape shape = read_npy_shape(path("huge.npy"));
  EXPECT_EQ(shape.dtype, DType::u16);
  EXPECT_EQ(shape.shape, (std::vector<std::size_t>{1024, 1048576, 512}));
  EXPECT_EQ(shape.bytes(), 1099511627776.0);
  fs::resize_file(path("huge.npy"), claim.size() + 48);
  try {
    read_npy_shape(path("huge.npy"));
    FAIL() << "a header whose data is missing was accepted";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("the file holds 48"), std::string::npos) << error.what();
  }
}

TEST_F(NpyTest, RefusesADirectory) {
  fs::create_directories(path("folder.npy"));
  expect_refused("folder.npy", "is a directory");
}

// Random and mutated headers: every one is either read into an array no
// larger than the bytes given, or refused with a UsageError; nothing else.
TEST(NpyFuzzTest, RandomAndMutatedHeadersAreAcceptedOrRefusedCleanly) {
  const char* descrs[] = {"<f4", "<f8", "|u1", "<u2", "<i4", "|b1", ">f4", "<c8", "", "<f4'"};
  const char* pieces[] = {"0", "1", "3", "7", "-1", "18446744073709551617", "9223372036854775807", "4294967296",
                          " ", ",", ", ", "L", "(", ")", "'", "1e3", "999999999999999999"};
  CounterRng rng(2026, 19);
  std::uint64_t draw = 0;
  auto next = [&](std::uint64_t n) { return rng.bits(draw++) % n; };
  int accepted = 0;
  const int kHeaders = 100000;
  for (int i = 0; i < kHeaders; ++i) {
    std::string shape = "(";
    for (std::uint64_t k = 0, parts = next(6); k < parts; ++k) shape += pieces[next(std::size(pieces))];
    shape += next(4) ? ")" : "";
    std::string dict = std::string("{'descr': '") + descrs[next(std::size(descrs))] +
                       "', 'fortran_order': " + (next(8) ? "False" : "True") + ", 'shape': " + shape + ", }";
    std::string text = dict;
    text.append(next(70), ' ');
    text += '\n';
    std::string bytes = "\x93NUMPY";
    bytes += static_cast<char>(next(5) ? 1 : next(4));
    bytes += '\0';
    bytes += static_cast<char>(text.size() & 0xff);
    bytes += static_cast<char>(next(10) ? text.size() >> 8 : next(256));
    bytes += text;
    bytes.append(next(64), '\x2a');
    // Mutations: flip a few bytes anywhere, or cut the file short.
    for (std::uint64_t flips = next(3); flips > 0; --flips) bytes[next(bytes.size())] = static_cast<char>(next(256));
    if (next(8) == 0) bytes.resize(next(bytes.size() + 1));
    std::istringstream in(bytes);
    try {
      Array array = read_npy(in, "fuzz.npy", bytes.size());
      ASSERT_LE(array.bytes(), bytes.size()) << bytes;
      ++accepted;
    } catch (const UsageError&) {
      // a clean refusal
    } catch (const std::exception& e) {
      FAIL() << "header " << i << " ended in " << e.what() << ":\n" << bytes;
    }
  }
  EXPECT_GT(accepted, 0) << "some well-formed headers must be read";
  RecordProperty("headers", kHeaders);
}

TEST_F(NpyTest, FailedWriteLeavesNothingBehind) {
  std::string target = path("no_such_directory/out.npy");
  EXPECT_THROW(write_npy(target, random_array(DType::f32, {3}, 1)), UsageError);
  EXPECT_FALSE(fs::exists(target));
  EXPECT_TRUE(fs::is_empty(directory_));
}

TEST(ArrayTest, CopiesAreDeepAndChecksumsFollowTheBytes) {
  Array a = random_array(DType::f32, {1001}, 3);
  Array b = a;
  EXPECT_EQ(checksum(a), checksum(b));
  b.raw()[4000] ^= std::byte{1};  // one bit of the last element
  EXPECT_NE(checksum(a), checksum(b));
  EXPECT_THROW(a.view<double>(), std::logic_error);
}

}  // namespace
}  // namespace ladder
