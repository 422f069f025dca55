// The `ladder` program as a user meets it: every kind of bad input gets one
// clear message, a non-zero exit and no output file; good runs write
// results that differ between two runs only in timings and timestamps.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "ladder/npy.hpp"

namespace ladder {
namespace {

namespace fs = std::filesystem;

struct Outcome {
  int exit_code;
  std::string output;  // stdout and stderr together
};

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = fs::temp_directory_path() /
                 ("ladder_cli_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(directory_);
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }

  std::string path(const std::string& name) const { return (directory_ / name).string(); }

  Outcome ladder(const std::string& arguments) const {
    std::string command = "cd '" + directory_.string() + "' && '" LADDER_EXECUTABLE "' " + arguments + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    std::string output;
    std::array<char, 4096> buffer;
    while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) output.append(buffer.data(), n);
    int status = pclose(pipe);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
  }

  // Exit status 2, the fragment in the message, and no output file.
  void expect_refused(const std::string& arguments, const std::string& fragment) const {
    Outcome outcome = ladder(arguments);
    EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
    EXPECT_NE(outcome.output.find(fragment), std::string::npos) << "message was: " << outcome.output;
    EXPECT_EQ(std::count(outcome.output.begin(), outcome.output.end(), '\n'), 1) << "one message: " << outcome.output;
    EXPECT_FALSE(fs::exists(path("c.npy")));
  }

  void write_vector(const std::string& name, DType dtype, std::size_t n) const {
    Array array(dtype, {n});
    write_npy(path(name), array);
  }

  fs::path directory_;
};

TEST_F(CliTest, UnknownCommandExerciseRungAndOption) {
  expect_refused("frobnicate", "unknown command 'frobnicate' (accepted: list, devices, run, check, solve, generate, report, compare, reproduce)");
  expect_refused("run no_such_exercise", "unknown exercise 'no_such_exercise' (accepted: ");
  expect_refused("run vector_add --variants serial,quantum", "unknown rung 'quantum' for vector_add (accepted: naive");
  expect_refused("run vector_add --fast", "unknown option --fast");
  expect_refused("run vector_add --size gigantic", "unknown size 'gigantic' for vector_add (accepted: tiny, workshop, large)");
}

TEST_F(CliTest, ParametersOutOfRangeOrUnknown) {
  expect_refused("run vector_add --param n=0", "parameter n=0 is out of range for vector_add (accepted: 1 to");
  expect_refused("run vector_add --param width=3", "unknown parameter 'width' for vector_add (accepted: n)");
  expect_refused("run vector_add --param n", "--param 'n' must be NAME=VALUE");
  expect_refused("run vector_add --threads 0", "--threads 0: expected an integer from 1");
}

TEST_F(CliTest, DevicesThatAreNotThere) {
  expect_refused("run vector_add --size tiny --cuda-device 7", "CUDA device 7 is not there");
  expect_refused("run vector_add --size tiny --opencl-device 9:9", "--opencl-device 9:9: no such OpenCL device");
  expect_refused("run vector_add --size tiny --opencl-device gpu", "expected PLATFORM:DEVICE");
}

TEST_F(CliTest, SolveRefusesBadInputsAndLeavesNoOutput) {
  write_vector("a.npy", DType::f32, 10);
  write_vector("b.npy", DType::f32, 10);
  write_vector("short.npy", DType::f32, 9);
  write_vector("double.npy", DType::f64, 10);
  const std::string ok = " --variant serial --output c.npy";
  expect_refused("solve vector_add --input a=a.npy --input b=missing.npy" + ok, "missing.npy: cannot open file");
  expect_refused("solve vector_add --input a=a.npy --input b=double.npy" + ok,
                 "input b is a float64 array of shape (10,); vector_add takes float32");
  expect_refused("solve vector_add --input a=a.npy --input b=short.npy" + ok, "inputs a and b differ in shape");
  expect_refused("solve vector_add --input a=a.npy" + ok, "missing input 'b' for vector_add (expected: a=FILE.npy b=FILE.npy)");
  expect_refused("solve vector_add --input a=a.npy --input b=b.npy --input z=a.npy" + ok, "unknown input 'z'");
  expect_refused("solve vector_add --input a=a.npy --input b=b.npy --param n=10" + ok,
                 "parameter n sets the size of generated inputs");
  expect_refused("solve vector_add --input a=a.npy --input b=b.npy --output c.npy", "needs --variant");
  expect_refused("solve vector_add --input a=a.npy --input b=b.npy --variant warp --output c.npy", "unknown rung 'warp'");
  std::ofstream(path("junk.npy")) << "not an array";
  expect_refused("solve vector_add --input a=junk.npy --input b=b.npy" + ok, "junk.npy: not a valid .npy file");
}

TEST_F(CliTest, OutputsThatWouldLoseWhatTheUserHadAreRefused) {
  write_vector("a.npy", DType::f32, 10);
  write_vector("b.npy", DType::f32, 10);
  const std::string inputs = "solve vector_add --variant serial --input a=a.npy --input b=b.npy";
  const auto a_before = checksum(read_npy(path("a.npy")));
  expect_refused(inputs + " --output a.npy", "a.npy: is also an input of this command");
  EXPECT_EQ(checksum(read_npy(path("a.npy"))), a_before) << "the input is untouched";
  fs::create_directories(path("folder"));
  expect_refused(inputs + " --output folder", "folder: is a directory");
  fs::create_symlink(path("b.npy"), path("link.npy"));
  expect_refused(inputs + " --output link.npy", "link.npy: is a symbolic link");
  EXPECT_TRUE(fs::is_symlink(path("link.npy")));
  // A write that fails says why (not "Success"), and leaves no temporary behind.
  expect_refused(inputs + " --output no_such_folder/c.npy", "no_such_folder/c.npy: cannot write (No such file or directory)");
  for (const auto& entry : fs::directory_iterator(directory_))
    EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << entry.path();
}

TEST_F(CliTest, GenerateWritesAllOrNothingAndKeepsOtherFiles) {
  fs::create_directories(path("out"));
  std::ofstream(path("out/notes.txt")) << "mine";
  Outcome outcome = ladder("generate vector_add --size tiny --out out");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  for (const char* name : {"a.npy", "b.npy", "expected_c.npy", "inputs.json", "notes.txt"})
    EXPECT_TRUE(fs::exists(path(std::string("out/") + name))) << name;
  outcome = ladder("generate vector_add --size tiny --out fresh/");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_TRUE(fs::exists(path("fresh/a.npy")));
  // An existing file where the folder should be: refused, nothing written.
  std::ofstream(path("taken")) << "mine";
  Outcome refused = ladder("generate vector_add --size tiny --out taken");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  for (const auto& entry : fs::directory_iterator(directory_))
    EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << entry.path();
}

TEST_F(CliTest, SolveOnACudaRungWithoutAGpuSaysSoAndWritesNothing) {
  write_vector("a.npy", DType::f32, 10);
  write_vector("b.npy", DType::f32, 10);
  Outcome outcome = ladder("solve vector_add --variant cuda --input a=a.npy --input b=b.npy --output c.npy");
  if (outcome.exit_code == 0) GTEST_SKIP() << "this machine has a CUDA GPU";
  // Built with CUDA but no GPU: a device error (3); built without CUDA: a usage error (2).
  if (outcome.exit_code == 3) {
    EXPECT_NE(outcome.output.find("rung cuda cannot run here"), std::string::npos) << outcome.output;
  } else {
    EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
    EXPECT_NE(outcome.output.find("rung cuda of vector_add is not built in this build"), std::string::npos);
  }
  EXPECT_FALSE(fs::exists(path("c.npy")));
}

TEST_F(CliTest, SolveWritesTheSum) {
  Array a(DType::f32, {3}), b(DType::f32, {3});
  for (int i = 0; i < 3; ++i) a.view<float>()[i] = 0.1f * i, b.view<float>()[i] = 1e8f;
  write_npy(path("a.npy"), a);
  write_npy(path("b.npy"), b);
  Outcome outcome = ladder("solve vector_add --variant openmp --input a=a.npy --input b=b.npy --output c.npy");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  Array c = read_npy(path("c.npy"));
  ASSERT_EQ(c.describe(), "float32 array of shape (3,)");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(c.view<float>()[i], a.view<float>()[i] + b.view<float>()[i]);
}

TEST_F(CliTest, GenerateWritesTheInputsAndTheReference) {
  Outcome outcome = ladder("generate vector_add --size tiny --param n=1001 --seed 3 --out data");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  Array a = read_npy(path("data/a.npy")), b = read_npy(path("data/b.npy")), c = read_npy(path("data/expected_c.npy"));
  ASSERT_EQ(c.describe(), "float32 array of shape (1001,)");
  for (std::size_t i = 0; i < 1001; ++i) ASSERT_EQ(c.view<float>()[i], a.view<float>()[i] + b.view<float>()[i]);
  // The same bytes as solve's own run on them.
  outcome = ladder("solve vector_add --variant serial --input a=data/a.npy --input b=data/b.npy --output c.npy");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_EQ(checksum(read_npy(path("c.npy"))), checksum(c));
}

TEST_F(CliTest, ListJsonSaysWhichRungsRunHere) {
  Outcome outcome = ladder("list --json");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  nlohmann::json list = nlohmann::json::parse(outcome.output);
  auto found = std::find_if(list.begin(), list.end(), [](const auto& e) { return e["exercise"] == "vector_add"; });
  ASSERT_NE(found, list.end()) << outcome.output;
  const auto& vector_add = *found;
  std::vector<std::string> rungs;
  for (const auto& rung : vector_add["rungs"]) {
    rungs.push_back(rung["name"]);
    if (!rung["runs_here"].get<bool>()) {
      EXPECT_FALSE(rung["reason"].get<std::string>().empty());
    }
  }
  EXPECT_EQ(rungs, (std::vector<std::string>{"naive", "serial", "openmp", "opencl", "cuda"}));
  EXPECT_TRUE(vector_add["sizes"].contains("workshop"));
}

TEST_F(CliTest, CheckPassesEveryRungThatRunsHere) {
  Outcome outcome = ladder("check vector_add");
  EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_NE(outcome.output.find("naive           pass"), std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find(" 0 failed"), std::string::npos) << outcome.output;
}

// Everything a run writes except timings, timing-derived figures and
// timestamps: two runs with one seed on one machine must agree on this.
nlohmann::json without_timings(nlohmann::json results) {
  for (const char* key : {"time", "command_line", "ceilings", "readings"}) results["context"].erase(key);
  for (auto& result : results["results"])
    for (auto& row : result["rungs"]) row.erase("timings");
  // PoCL reports a CPU device's global memory from what the host has free,
  // which moves between two runs (seen on the H100 machine's host).
  for (auto& device : results["context"]["opencl"]["devices"])
    if (device.value("type", "") == "CPU") device.erase("global_memory_bytes");
  return results;
}

TEST_F(CliTest, TwoRunsWithOneSeedDifferOnlyInTimings) {
  const std::string run = "run vector_add --size tiny --min-time 0.001 --repetitions 3 --host-bandwidth 10 --seed 4";
  Outcome first = ladder(run + " --out first.json");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  Outcome second = ladder(run + " --out second.json");
  ASSERT_EQ(second.exit_code, 0) << second.output;
  nlohmann::json a = nlohmann::json::parse(std::ifstream(path("first.json")));
  nlohmann::json b = nlohmann::json::parse(std::ifstream(path("second.json")));
  EXPECT_EQ(without_timings(a), without_timings(b));
  EXPECT_EQ(a["results"][0]["seed"], 4);
  EXPECT_EQ(a["results"][0]["rungs"][0]["status"], "ok");
  EXPECT_NE(a["results"][0]["input_checksums"]["a"], "");
}

}  // namespace
}  // namespace ladder
