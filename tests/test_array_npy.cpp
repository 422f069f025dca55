// .npy reading and writing: round trips for every dtype and rank, and a
// clear UsageError for every kind of malformed file.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

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
                 ("ladder_npy_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
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
  write_bytes("short.npy", header("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }") + "12345678");
  expect_refused("short.npy", "shorter");
}

TEST_F(NpyTest, RefusesTrailingData) {
  write_bytes("long.npy", header("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }") + "12345678");
  expect_refused("long.npy", "longer");
}

TEST_F(NpyTest, RefusesFortranOrder) {
  write_bytes("f.npy", header("{'descr': '<f4', 'fortran_order': True, 'shape': (1, 1), }") + "1234");
  expect_refused("f.npy", "Fortran");
}

TEST_F(NpyTest, RefusesBigEndian) {
  write_bytes("be.npy", header("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }") + "1234");
  expect_refused("be.npy", "big-endian");
}

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
  write_bytes("c.npy", header("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }") + "12345678");
  expect_refused("c.npy", "accepted: bool, uint8");
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
