// The `ladder` program as a user meets it: every kind of bad input gets one
// clear message, a non-zero exit and no output file; good runs write
// results that differ between two runs only in timings and timestamps.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <regex>
#include <sstream>
#include <thread>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "ladder/harness.hpp"
#include "ladder/npy.hpp"
#include "run_ladder.hpp"

namespace ladder {
namespace {

namespace fs = std::filesystem;

using Outcome = testing::LadderOutcome;

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = ladder::testing::test_folder("cli_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(directory_);
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }

  std::string path(const std::string& name) const { return (directory_ / name).string(); }

  // `environment`: assignments for this command alone, e.g. "LADDER_MEMORY_LIMIT_MB=1".
  Outcome ladder(const std::string& arguments, const std::string& environment = "") const {
    return testing::run_ladder(directory_, arguments, environment);
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

  // A .npy file whose header claims `elements` float32 values, as a sparse
  // file: the claim is true (the size matches) but takes no disk space.
  void write_sparse_vector(const std::string& name, std::uint64_t elements) const {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(elements) + ",), }";
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    std::ofstream file(path(name), std::ios::binary);
    file << "\x93NUMPY" << '\x01' << '\x00' << static_cast<char>(header.size() & 0xff)
         << static_cast<char>(header.size() >> 8) << header;
    file.close();
    fs::resize_file(path(name), 10 + header.size() + 4 * elements);
  }

  // Starts ladder in the test's folder and sends it SIGINT as soon as
  // `ready(its pid)` holds (polled every millisecond); returns its wait
  // status (an exit, where it finished first).
  int interrupted(const std::vector<std::string>& arguments, const std::function<bool(pid_t)>& ready) const {
    std::vector<std::string> words = {LADDER_EXECUTABLE};
    words.insert(words.end(), arguments.begin(), arguments.end());
    std::vector<char*> argv;
    for (auto& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    const std::string folder = directory_.string();
    const pid_t child = ::fork();
    if (child == 0) {
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, STDOUT_FILENO), ::dup2(null, STDERR_FILENO);
      if (::chdir(folder.c_str()) == 0) ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    int status = 0;
    while (::waitpid(child, &status, WNOHANG) == 0) {
      if (ready(child)) {
        ::kill(child, SIGINT);
        ::waitpid(child, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return status;
  }
  static std::function<bool(pid_t)> after(std::chrono::milliseconds delay) {
    const auto start = std::chrono::steady_clock::now();
    return [=](pid_t) { return std::chrono::steady_clock::now() - start >= delay; };
  }

  // Nothing in the test's folder whose name holds ".tmp" (a temporary file,
  // or generate's sibling folder).
  void expect_no_temporaries() const {
    for (const auto& entry : fs::recursive_directory_iterator(directory_))
      EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << entry.path();
  }

  fs::path directory_;
};

TEST_F(CliTest, UnknownCommandExerciseRungAndOption) {
  expect_refused("frobnicate", "unknown command 'frobnicate' (accepted: list, devices, run, check, solve, generate, report, compare, reproduce, board, pace)");
  expect_refused("run no_such_exercise", "unknown exercise 'no_such_exercise' (accepted: ");
  expect_refused("run vector_add --variants serial,quantum", "unknown rung 'quantum' for vector_add (accepted: naive");
  expect_refused("run vector_add --fast", "unknown option --fast");
  expect_refused("run vector_add --size gigantic", "unknown size 'gigantic' (accepted: tiny, workshop, large)");
  // With no exercise named, the message names none either.
  expect_refused("run --size gigantic", "unknown size 'gigantic' (accepted: tiny, workshop, large)");
}

// A typo is refused with the nearest accepted word; a word far from all of
// them gets no guess.
TEST_F(CliTest, TyposGetADidYouMean) {
  expect_refused("rnu vector_add", "unknown command 'rnu'; did you mean 'run'? (accepted: ");
  expect_refused("run vectoradd", "unknown exercise 'vectoradd'; did you mean 'vector_add'? (accepted: ");
  expect_refused("run vector_add --variants seral", "unknown rung 'seral' for vector_add; did you mean 'serial'? (accepted: ");
  expect_refused("run vector_add --size workshp", "unknown size 'workshp'; did you mean 'workshop'? (accepted: ");
  expect_refused("run vector_add --repetition 3", "unknown option --repetition for `ladder run`; did you mean '--repetitions'?");
  expect_refused("run labelling --param conectivity=8", "unknown parameter 'conectivity' for labelling; did you mean 'connectivity'?");
  Outcome far = ladder("run quantum_chromodynamics");
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_EQ(far.output.find("did you mean"), std::string::npos) << far.output;
}

// Why a rung did not run, as a person would read it: a CUDA rung in a
// build without CUDA or a machine without a GPU is not "no skeleton"; a
// not-implemented status does not run into its reason; the run prints the
// ceilings its "ceiling" column divides by.
TEST_F(CliTest, CheckAndRunSayWhyARungDidNotRun) {
  Outcome check = ladder("check vector_add --track exercises --variants serial,cuda --size tiny");
  EXPECT_NE(check.output.find("  cuda "), std::string::npos) << check.output;
  EXPECT_EQ(check.output.find("no skeleton for it in exercises/"), std::string::npos) << check.output;
  Outcome run = ladder("run vector_add --track exercises --size tiny --variants serial --min-time 0.001 --out r.json");
  EXPECT_NE(run.output.find("not_implemented serial: "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("host memory bandwidth: "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find(" GB/s"), std::string::npos) << run.output;
}

// A CPU row whose working set is smaller than the host probe's arrays is
// judged against the probe run at that working set too, where that is
// faster: the run prints it, and the row's ceiling is never below the probe's.
TEST_F(CliTest, ACpuRowIsJudgedAtItsOwnWorkingSet) {
  Outcome run =
      ladder("run vector_add --param n=262144 --variants serial --min-time 0.001 --repetitions 3 --out ws.json");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("host memory bandwidth at this working set (3.0 MiB): "), std::string::npos) << run.output;
  const nlohmann::json results = nlohmann::json::parse(std::ifstream(path("ws.json")));
  const nlohmann::json& entry = results["results"][0];
  const double probe = results["context"]["ceilings"]["host_bytes_per_s"];
  const nlohmann::json& fraction = entry["rungs"][0]["timings"]["fraction_of_ceiling"];
  EXPECT_GE(fraction["ceiling_bytes_per_s"].get<double>(), probe);
  if (fraction.contains("working_set_bytes")) {
    EXPECT_EQ(fraction["working_set_bytes"], 12.0 * 262144);
    EXPECT_GT(fraction["ceiling_bytes_per_s"].get<double>(), probe);
  }
}

TEST_F(CliTest, ParametersOutOfRangeOrUnknown) {
  expect_refused("run vector_add --param n=0", "parameter n=0 is out of range for vector_add (accepted: 1 to");
  expect_refused("run vector_add --param width=3", "unknown parameter 'width' for vector_add (accepted: n)");
  expect_refused("run vector_add --param n", "--param 'n' must be NAME=VALUE");
  expect_refused("run vector_add --threads 0", "--threads 0: expected an integer from 1");
  expect_refused("run vector_add --warm --evict-by-writing", "--warm and --evict-by-writing");
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

// The headers that once crashed a rung or wrote an impossible output
// (shapes whose product wraps past 2^64, negative or over-long dimensions,
// a terabyte claimed by 48 bytes, data one byte short), put in place of
// each input of every exercise in turn, the other inputs valid: each one
// is refused by solve with one message naming the file, and nothing is written.
TEST_F(CliTest, EveryExerciseRefusesHostileHeadersInEveryInput) {
  struct Hostile {
    std::string shape;      // replaces the header's shape; empty: keep it
    std::size_t data_bytes; // kept from the valid file where the shape is kept (less one)
    std::string fragment;
  };
  const std::vector<Hostile> hostiles = {
      {"(3, 2, 9223372036854775809)", 12, "not a non-negative integer below 10^18"},
      {"(4294967296, 4294967296)", 0, "overflows"},
      {"(-12,)", 48, "is not a non-negative integer"},
      {"(123456789012345678901234567890,)", 48, "is not a non-negative integer"},
      {"(1099511627776,)", 48, "the file holds 48"},
      {"", 0, "the file holds"},
  };
  // A valid .npy file's header text and data, and the file rebuilt with another header.
  auto split = [](const std::string& bytes) {
    const std::size_t length = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    return std::pair{bytes.substr(10, length), bytes.substr(10 + length)};
  };
  auto rebuild = [](std::string text, const std::string& data) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    text.append((64 - (10 + text.size() + 1) % 64) % 64, ' ');
    text += '\n';
    return std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(text.size() & 0xff) +
           static_cast<char>(text.size() >> 8) + text + data;
  };
  int refused = 0;
  for (const std::string exercise : {"polygon_mask", "vector_add", "histogram", "convolution", "kappa_sigma",
                                     "labelling", "spot_finding", "median_filter", "batched_matmul"}) {
    ASSERT_EQ(ladder("generate " + exercise + " --size tiny --out " + exercise).exit_code, 0) << exercise;
    std::vector<std::string> inputs;  // the generated inputs: every .npy but the expected outputs
    for (const auto& entry : fs::directory_iterator(path(exercise)))
      if (entry.path().extension() == ".npy" && !entry.path().filename().string().starts_with("expected_"))
        inputs.push_back(entry.path().stem());
    ASSERT_FALSE(inputs.empty()) << exercise;
    const std::string params = exercise == "polygon_mask" ? " --param width=97 --param height=61" : "";
    auto solve = [&](const std::string& hostile_input, const std::string& hostile_file) {
      std::string command = "solve " + exercise + " --variant serial --output out.npy" + params;
      for (const auto& input : inputs)
        command += " --input " + input + "=" + (input == hostile_input ? hostile_file : exercise + "/" + input + ".npy");
      return ladder(command);
    };
    Outcome valid = solve("", "");
    ASSERT_EQ(valid.exit_code, 0) << exercise << ": " << valid.output;
    fs::remove(path("out.npy"));
    fs::remove(path("out.npy.csv"));
    for (const auto& input : inputs) {
      std::ifstream file(path(exercise + "/" + input + ".npy"), std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
      const auto [text, data] = split(bytes);
      for (const auto& hostile : hostiles) {
        SCOPED_TRACE(exercise + ", input " + input + ", shape " + (hostile.shape.empty() ? "as generated, data one byte short" : hostile.shape));
        std::string hostile_text = text, hostile_data;
        if (hostile.shape.empty()) {
          hostile_data = data.substr(0, data.size() - 1);
        } else {
          const std::size_t start = hostile_text.find("'shape': (") + 9;
          hostile_text.replace(start, hostile_text.find(')', start) + 1 - start, hostile.shape);
          hostile_data = std::string(hostile.data_bytes, '\0');
        }
        std::ofstream(path("hostile.npy"), std::ios::binary) << rebuild(hostile_text, hostile_data);
        Outcome outcome = solve(input, "hostile.npy");
        EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
        EXPECT_NE(outcome.output.find("hostile.npy"), std::string::npos) << outcome.output;
        EXPECT_NE(outcome.output.find(hostile.fragment), std::string::npos) << outcome.output;
        EXPECT_EQ(std::count(outcome.output.begin(), outcome.output.end(), '\n'), 1) << "one message: " << outcome.output;
        EXPECT_FALSE(fs::exists(path("out.npy")));
        EXPECT_FALSE(fs::exists(path("out.npy.csv")));
        refused += outcome.exit_code == 2;
      }
    }
  }
  expect_no_temporaries();
  EXPECT_EQ(refused, 6 * 13) << "six hostile headers in each of the 13 inputs of the nine exercises";
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
  // A device node (as root, writing would have replaced it).
  expect_refused(inputs + " --output /dev/null", "/dev/null: is not a regular file");
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
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
  EXPECT_NE(outcome.output.find("rung cuda of vector_add cannot run here: "), std::string::npos) << outcome.output;
  if (outcome.exit_code == 3) {
    EXPECT_NE(outcome.output.find("no NVIDIA GPU or driver on this machine"), std::string::npos) << outcome.output;
  } else {
    EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
    EXPECT_NE(outcome.output.find("built without CUDA"), std::string::npos) << outcome.output;
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
  std::vector<std::string> rungs, python_rungs;
  for (const auto& rung : vector_add["rungs"]) {
    (rung["backend"] == "python" ? python_rungs : rungs).push_back(rung["name"]);
    if (!rung["runs_here"].get<bool>()) {
      EXPECT_FALSE(rung["reason"].get<std::string>().empty());
    }
  }
  EXPECT_EQ(rungs, (std::vector<std::string>{"naive", "serial", "openmp", "opencl", "cuda", "openmp_target",
                                             "openmp_target_quads"}));
  // Then the Python rungs, the interpreter first (issue 70).
  ASSERT_GE(python_rungs.size(), 2u);
  EXPECT_EQ(python_rungs[0], "python_loops");
  EXPECT_TRUE(vector_add["sizes"].contains("workshop"));
}

// An openmp_target rung's library is loaded when the rung is first made,
// not when `ladder` starts: loading it starts libomptarget, which starts
// CUDA on a GPU machine, and compute-sanitizer over the CUDA rungs must
// start CUDA itself ("CUDA initialized before the Sanitizer"). glibc's
// LD_DEBUG=files names each library as it is loaded.
TEST_F(CliTest, AnOpenMpTargetRungsLibraryIsLoadedOnlyWhenTheRungRuns) {
  const Outcome listed = ladder("list --json");
  ASSERT_EQ(listed.exit_code, 0) << listed.output;
  if (listed.output.find("built without OpenMP target offload") != std::string::npos)
    GTEST_SKIP() << "this build has no openmp_target rungs";
  const Outcome list = ladder("list", "LD_DEBUG=files");
  EXPECT_EQ(list.output.find("libomptarget"), std::string::npos) << "ladder list loaded libomptarget";
  // `run`, not `check`: check makes an openmp_target rung in a child process of its own.
  const Outcome serial = ladder("run vector_add --size tiny --variants serial --out serial.json", "LD_DEBUG=files");
  EXPECT_EQ(serial.output.find("libomptarget"), std::string::npos) << "a serial run loaded libomptarget";
  const Outcome target =
      ladder("run vector_add --size tiny --variants openmp_target --out target.json", "LD_DEBUG=files");
  EXPECT_EQ(target.exit_code, 0) << target.output;
  EXPECT_NE(target.output.find("libomptarget"), std::string::npos) << "the openmp_target rung ran without its runtime?";
}

TEST_F(CliTest, CheckPassesEveryRungThatRunsHere) {
  Outcome outcome = ladder("check vector_add");
  EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
  // The name column is as wide as the longest rung name.
  EXPECT_TRUE(std::regex_search(outcome.output, std::regex("\n  naive +pass"))) << outcome.output;
  EXPECT_NE(outcome.output.find(" 0 failed"), std::string::npos) << outcome.output;
}

// The memory check: a case larger than this machine's memory is refused
// before anything is allocated, with one message naming both figures, no
// output and at once (not after a multi-GiB allocation).
void expect_refused_for_memory(const Outcome& outcome, double seconds, const std::string& needs) {
  EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
  EXPECT_NE(outcome.output.find("needs about " + needs), std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find(" of host memory; "), std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find(" available"), std::string::npos) << outcome.output;
  EXPECT_EQ(std::count(outcome.output.begin(), outcome.output.end(), '\n'), 1) << "one message: " << outcome.output;
  EXPECT_LT(seconds, 5.0) << "refused at once";
}

TEST_F(CliTest, ACaseLargerThanTheMachinesMemoryIsRefusedBeforeAnyWork) {
  // A 2^20 × 2^20 mask: 1 TiB, three times over (the mask's own limit is
  // validate()'s, for solve; run and generate meet the memory check first).
  const std::string huge = "polygon_mask --size tiny --param width=1048576 --param height=1048576";
  for (const std::string& command : {"run " + huge + " --out results.json", "generate " + huge + " --out data",
                                    std::string("check polygon_mask --track exercises --size large")}) {
    const std::string environment = command.starts_with("check") ? "LADDER_MEMORY_LIMIT_MB=100" : "";
    const auto start = std::chrono::steady_clock::now();
    Outcome outcome = ladder(command, environment);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // check's large polygon_mask is 8192² pixels, 192 MiB against a 100 MiB limit.
    expect_refused_for_memory(outcome, seconds, command.starts_with("check") ? "192.0 MiB" : "3.0 TiB");
  }
  // vector_add at its largest n, 28 bytes an element, against a 16 GiB limit.
  Outcome outcome = ladder("run vector_add --param n=2147483648 --out results.json", "LADDER_MEMORY_LIMIT_MB=16384");
  expect_refused_for_memory(outcome, 0, "56.0 GiB");
  EXPECT_NE(outcome.output.find("vector_add at n=2147483648 needs about 56.0 GiB of host memory; "
                                "LADDER_MEMORY_LIMIT_MB=16384 leaves 16.0 GiB available; try a smaller --size or --param"),
            std::string::npos)
      << outcome.output;
  // solve predicts from the files' headers before reading their data: two
  // 256 GiB vectors (sparse files, the header's claim matching the size).
  write_sparse_vector("huge.npy", std::uint64_t{1} << 36);
  const auto start = std::chrono::steady_clock::now();
  outcome = ladder("solve vector_add --variant serial --input a=huge.npy --input b=huge.npy --output c.npy");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  expect_refused_for_memory(outcome, seconds, "1.8 TiB");
  EXPECT_NE(outcome.output.find("vector_add on huge.npy, huge.npy needs about"), std::string::npos) << outcome.output;
  for (const char* name : {"results.json", "data", "c.npy"}) EXPECT_FALSE(fs::exists(path(name))) << name;
  expect_no_temporaries();
}

// LADDER_MEMORY_LIMIT_MB caps what a case may use: the tiny vector_add
// (about 27 MiB) is refused under 1 MiB by every command, and runs without it.
TEST_F(CliTest, LadderMemoryLimitMbCapsTheMemoryOfEveryCommand) {
  write_vector("a.npy", DType::f32, 1000003);
  write_vector("b.npy", DType::f32, 1000003);
  const std::vector<std::string> commands = {
      "run vector_add --size tiny --variants serial --min-time 0.001 --repetitions 3 --host-bandwidth 10 --out results.json",
      "generate vector_add --size tiny --out data",
      "check vector_add --variants serial",
      "solve vector_add --variant serial --input a=a.npy --input b=b.npy --output c.npy"};
  for (const auto& command : commands) {
    Outcome refused = ladder(command, "LADDER_MEMORY_LIMIT_MB=1");
    // check refuses its first case over the limit, n=65537 (1.8 MiB).
    expect_refused_for_memory(refused, 0, command.starts_with("check") ? "1.8 MiB" : "26.7 MiB");
    EXPECT_NE(refused.output.find("LADDER_MEMORY_LIMIT_MB=1 leaves 1.0 MiB available"), std::string::npos)
        << refused.output;
    for (const char* name : {"results.json", "data", "c.npy"}) EXPECT_FALSE(fs::exists(path(name))) << name;
    Outcome passed = ladder(command);
    EXPECT_EQ(passed.exit_code, 0) << command << ": " << passed.output;
    for (const char* name : {"results.json", "data", "c.npy"}) fs::remove_all(path(name));
  }
  Outcome malformed = ladder("generate vector_add --size tiny --out data2", "LADDER_MEMORY_LIMIT_MB=lots");
  EXPECT_EQ(malformed.exit_code, 2) << malformed.output;
  EXPECT_NE(malformed.output.find("LADDER_MEMORY_LIMIT_MB=lots: expected a positive number of MiB"), std::string::npos)
      << malformed.output;
  EXPECT_FALSE(fs::exists(path("data2")));
}

// Interrupted (SIGINT, as Ctrl-C sends it), generate leaves all or
// nothing: no partial folder, no temporary file, no sibling folder; into a
// folder that holds the user's files, those alone remain. The interrupts
// fall while it generates (at 300 ms) and while it writes its second file
// (as soon as the temporary file is there); where a machine finishes
// first, its output must be whole.
TEST_F(CliTest, AnInterruptedGenerateLeavesAllOrNothing) {
  const std::vector<std::string> written = {"a.npy", "b.npy", "expected_c.npy", "inputs.json"};
  int interrupts = 0;
  for (const bool while_writing : {false, true}) {
    for (const std::string folder : {"fresh", "mine"}) {
      const bool users_folder = folder == "mine";
      fs::remove_all(path(folder));
      if (users_folder) {
        fs::create_directories(path(folder));
        std::ofstream(path("mine/notes.txt")) << "mine";
      }
      // generate writes b.npy through b.npy.tmp<pid> in the sibling folder <folder>.tmp<pid>.
      auto writing_b = [&](pid_t pid) {
        const std::string suffix = ".tmp" + std::to_string(pid);
        return fs::exists(path(folder + suffix + "/b.npy" + suffix));
      };
      const int status = interrupted({"generate", "vector_add", "--param", "n=67108864", "--out", folder},
                                     while_writing ? std::function<bool(pid_t)>(writing_b) : after(std::chrono::milliseconds(300)));
      const std::string when = while_writing ? "while writing" : "at 300 ms";
      std::vector<std::string> expected = users_folder ? std::vector<std::string>{"notes.txt"} : std::vector<std::string>{};
      if (WIFSIGNALED(status)) {
        EXPECT_EQ(WTERMSIG(status), SIGINT);
        ++interrupts;
        if (!users_folder) {
          EXPECT_FALSE(fs::exists(path(folder))) << when;
        }
      } else {
        ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
        expected.insert(expected.end(), written.begin(), written.end());
      }
      std::vector<std::string> left;
      if (fs::exists(path(folder)))
        for (const auto& entry : fs::directory_iterator(path(folder))) left.push_back(entry.path().filename());
      std::sort(left.begin(), left.end());
      std::sort(expected.begin(), expected.end());
      EXPECT_EQ(left, expected) << folder << ", interrupted " << when;
      expect_no_temporaries();
    }
  }
  EXPECT_GT(interrupts, 0) << "every generate finished before its interrupt: use a larger n";
}

// Likewise solve: interrupted while it reads and computes (at 100 and 300
// ms) or while it writes, it leaves no output and no temporary file.
TEST_F(CliTest, AnInterruptedSolveLeavesNoOutputAndNoTemporary) {
  using namespace std::chrono_literals;
  write_vector("a.npy", DType::f32, 67108864);
  write_vector("b.npy", DType::f32, 67108864);
  auto writing_c = [&](pid_t pid) { return fs::exists(path("c.npy.tmp" + std::to_string(pid))); };
  int interrupts = 0;
  for (const auto& ready : {after(100ms), after(300ms), std::function<bool(pid_t)>(writing_c)}) {
    fs::remove(path("c.npy"));
    const int status = interrupted(
        {"solve", "vector_add", "--variant", "naive", "--input", "a=a.npy", "--input", "b=b.npy", "--output", "c.npy"},
        ready);
    if (WIFSIGNALED(status)) {
      EXPECT_EQ(WTERMSIG(status), SIGINT);
      ++interrupts;
      EXPECT_FALSE(fs::exists(path("c.npy")));
    } else {
      ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
      EXPECT_EQ(read_npy(path("c.npy")).describe(), "float32 array of shape (67108864,)");
    }
    expect_no_temporaries();
  }
  EXPECT_GT(interrupts, 0) << "every solve finished before its interrupt: use larger inputs";
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
  // How the GPU's L2 is evicted is recorded, whether or not a GPU is there.
  EXPECT_EQ(a["context"]["l2_eviction_by"], "reading");
  Outcome writing = ladder(run + " --evict-by-writing --out writing.json");
  ASSERT_EQ(writing.exit_code, 0) << writing.output;
  EXPECT_EQ(nlohmann::json::parse(std::ifstream(path("writing.json")))["context"]["l2_eviction_by"], "writing");
}


// `ladder pace`: the harness's repetition rule for a timer in another process
// (the peers'). Its answers come from a file here: each `sample` it prints
// takes the next line.
class PaceTest : public CliTest {
 protected:
  struct Paced {
    Outcome outcome;
    long asked = 0;       // `sample` lines: the pilot and every kept sample
    nlohmann::json done;  // the `done` line's statistics
  };
  Paced pace(const nlohmann::json& policy, const std::vector<double>& answers) const {
    std::ofstream file(path("answers.txt"));
    file.precision(17);
    for (double seconds : answers) file << seconds << '\n';
    file.close();
    Paced paced;
    paced.outcome = ladder("pace --policy '" + policy.dump() + "' < answers.txt");
    std::istringstream lines(paced.outcome.output);
    for (std::string line; std::getline(lines, line);)
      if (line == "sample")
        ++paced.asked;
      else if (line.rfind("done ", 0) == 0)
        paced.done = nlohmann::json::parse(line.substr(5));
      else
        ADD_FAILURE() << "not the protocol: " << line;
    return paced;
  }
  static nlohmann::json policy(double min_time, int least, int most, double budget = 60) {
    return {{"min_time_s", min_time}, {"min_repetitions", least}, {"max_repetitions", most},
            {"noise_target", 0.01},   {"time_budget_s", budget}};
  }
  // 1, 1.33, 1.67, ... 3 ms over and over: the median never within +-1 %.
  static std::vector<double> noisy() {
    std::vector<double> seconds;
    for (int i = 0; i < 5000; ++i) seconds.push_back(1e-3 * (1 + (i % 7) / 3.0));
    return seconds;
  }
};

TEST_F(PaceTest, ASteadyTimerGetsOneBatchSizedByThePilot) {
  const std::vector<double> steady(5000, 0.0625);
  // min_time / pilot = 8 repetitions, within [5, 1000]; kept, after the pilot.
  Paced eight = pace(policy(0.5, 5, 1000), steady);
  ASSERT_EQ(eight.outcome.exit_code, 0) << eight.outcome.output;
  EXPECT_EQ(eight.asked, 1 + 8);
  EXPECT_EQ(eight.done["repetitions"], 8);
  EXPECT_EQ(eight.done["samples_s"], nlohmann::json(std::vector<double>(8, 0.0625)));
  EXPECT_EQ(eight.done["median_s"], 0.0625);
  EXPECT_EQ(eight.done["median_interval"], 0);
  // Clamped to min_repetitions and to max_repetitions.
  EXPECT_EQ(pace(policy(0.125, 5, 1000), steady).done["repetitions"], 5);
  EXPECT_EQ(pace(policy(100, 5, 20), steady).done["repetitions"], 20);
}

TEST_F(PaceTest, ANoisyTimerGetsMoreBatchesUpToTheCaps) {
  Paced four = pace(policy(0, 5, 1000), noisy());
  ASSERT_EQ(four.outcome.exit_code, 0) << four.outcome.output;
  EXPECT_EQ(four.done["repetitions"], 5 * TimingPolicy::kMaxBatches);
  EXPECT_EQ(four.asked, 1 + 5 * TimingPolicy::kMaxBatches);
  EXPECT_GT(four.done["median_interval"].get<double>(), 0.01);
  // No batch past max_repetitions: two batches of 5 within 12.
  EXPECT_EQ(pace(policy(0, 5, 12), noisy()).done["repetitions"], 10);
  // A tiny time budget: one batch, of 3.
  EXPECT_EQ(pace(policy(1, 5, 1000, 1e-9), noisy()).done["repetitions"], 3);
}

TEST_F(PaceTest, ABadPolicyOrAnswerIsRefused) {
  const nlohmann::json good = policy(0, 5, 1000);
  expect_refused("pace", "--policy");
  expect_refused("pace --policy '{not json'", "expected a JSON object");
  expect_refused("pace --policy '[1, 2]'", "expected a JSON object");
  for (const auto& [key, value, fragment] : std::vector<std::tuple<std::string, nlohmann::json, std::string>>{
           {"noise_target", -0.01, "noise_target"},
           {"time_budget_s", 0, "time_budget_s"},
           {"min_time_s", "0.2", "min_time_s"},
           {"min_repetitions", 2.5, "min_repetitions"},
           {"max_repetitions", 4, "max_repetitions"},
           {"max_batches", 7, "max_batches"},
           {"progress_every", 10, "unknown key \"progress_every\""}}) {
    nlohmann::json bad = good;
    bad[key] = value;
    expect_refused("pace --policy '" + bad.dump() + "'", fragment);
  }
  nlohmann::json missing = good;
  missing.erase("time_budget_s");
  expect_refused("pace --policy '" + missing.dump() + "'", "\"time_budget_s\" is missing");
  nlohmann::json recorded = good;
  recorded["max_batches"] = TimingPolicy::kMaxBatches;
  EXPECT_EQ(pace(recorded, noisy()).outcome.exit_code, 0);
  // An answer that is not a number of seconds, and answers that run out.
  for (const auto& [answers, fragment] : std::vector<std::pair<std::string, std::string>>{
           {"0.001\nabc\n", "got 'abc'"}, {"0.001\n-1\n", "got '-1'"}, {"0.001\n0.001\n", "stdin ended"}}) {
    std::ofstream(path("answers.txt")) << answers;
    Outcome outcome = ladder("pace --policy '" + good.dump() + "' < answers.txt");
    EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
    EXPECT_NE(outcome.output.find(fragment), std::string::npos) << outcome.output;
    EXPECT_EQ(outcome.output.find("done"), std::string::npos) << outcome.output;
  }
}

}  // namespace
}  // namespace ladder
