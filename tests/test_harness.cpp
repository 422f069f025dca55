// The harness's contracts: parameters, the output check, and a run's rows
// (status, timings, speed-ups, skipped and failed rungs). The repetitions
// and their statistics are tested in test_repetitions.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <thread>

#include "ladder/error.hpp"
#include "ladder/harness.hpp"
#include "ladder/memory.hpp"
#ifdef LADDER_HAVE_MPI
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <utility>

#include "ladder/backends.hpp"
#include "ladder/mpi.hpp"
#include "rung_test.hpp"
#endif

namespace ladder {
namespace {

// A test-only exercise whose serial rung is wrong on purpose: copy the
// input, except that element 3 comes out off by one. Two more rungs make
// the participant's classic mistake, adding into the output instead of
// writing it: one never clears it, one clears it in prepare() only.
class TestCopy : public Problem {
 public:
  std::string name() const override { return "test_copy"; }
  std::string summary() const override { return "test only"; }
  std::vector<std::string> rungs() const override { return {"naive", "serial", "adds", "clears_once", "cuda"}; }
  std::vector<ParamSpec> params() const override { return {{"n", "elements", 1, 1000, true, true}}; }
  std::vector<SizePreset> sizes() const override { return {{"tiny", {{"n", "10"}}}}; }
  std::vector<InputSpec> inputs() const override { return {{"x", "int32"}}; }
  std::vector<CheckCase> check_cases() const override { return {{Params(), "a wrong copy"}}; }
  Arrays generate(const Params& params, std::uint64_t) const override {
    Array x(DType::i32, {static_cast<std::size_t>(params.integer("n"))});
    for (std::size_t i = 0; i < x.size(); ++i) x.view<std::int32_t>()[i] = static_cast<std::int32_t>(i * i);
    return {{"x", x}};
  }
  void validate(const Arrays&, const Params&) const override {}
  ArrayShapes input_shapes(const Params& params) const override {
    return {{"x", {DType::i32, {static_cast<std::size_t>(params.integer("n"))}}}};
  }
  double host_bytes(const ArrayShapes& inputs, const Params&) const override { return 3 * total_bytes(inputs); }
  Arrays allocate_outputs(const Arrays& inputs, const Params&) const override {
    return {{"y", Array(DType::i32, inputs.at("x").shape())}};
  }
  Arrays reference(const Arrays& inputs, const Params&) const override { return {{"y", inputs.at("x")}}; }
  CheckResult check(const Arrays& got, const Arrays& expected) const override { return check_identical(got, expected); }
  Work work(const Arrays& inputs, const Params&) const override { return {8.0 * inputs.at("x").size(), 0, 0, 0}; }
  // The naive rung pretends to be quadratic: one hour at n = 1000.
  std::optional<Prediction> predict(const std::string& rung, const Params& params) const override {
    if (rung != "naive") return std::nullopt;
    double n = params.number("n");
    return Prediction{3600.0 * n * n / 1e6, "test: quadratic"};
  }
};
LADDER_REGISTER_PROBLEM(TestCopy);

class CopyRung : public HostRung {
 public:
  explicit CopyRung(const RungContext&) {}
  void prepare(const Arrays& inputs, Arrays& outputs) override {
    x_ = inputs.at("x").view<std::int32_t>();
    y_ = outputs.at("y").view<std::int32_t>();
  }
  void compute() override { std::copy(x_.begin(), x_.end(), y_.begin()); }

 protected:
  std::span<const std::int32_t> x_;
  std::span<std::int32_t> y_;
};
class BrokenCopyRung final : public CopyRung {
 public:
  using CopyRung::CopyRung;
  void compute() override {
    CopyRung::compute();
    y_[3] += 1;
  }
};
class AddingRung : public CopyRung {
 public:
  using CopyRung::CopyRung;
  void compute() override {
    for (std::size_t i = 0; i < x_.size(); ++i) y_[i] += x_[i];
  }
};
class ClearsOnceRung final : public AddingRung {
 public:
  using AddingRung::AddingRung;
  void prepare(const Arrays& inputs, Arrays& outputs) override {
    AddingRung::prepare(inputs, outputs);
    std::fill(y_.begin(), y_.end(), 0);
  }
};
LADDER_REGISTER_RUNG(test_copy, naive, CopyRung);
LADDER_REGISTER_RUNG(test_copy, serial, BrokenCopyRung);
LADDER_REGISTER_RUNG(test_copy, adds, AddingRung);
LADDER_REGISTER_RUNG(test_copy, clears_once, ClearsOnceRung);

// The same copy, for the transfer figure's two ways: rungs whose compute
// takes 2 ms, with copies that cost nothing, or a slow upload, or timed by
// a clock that is not the host's.
class TestTransfers final : public TestCopy {
 public:
  std::string name() const override { return "test_transfers"; }
  std::vector<std::string> rungs() const override { return {"cheap_copies", "slow_upload", "device_clock"}; }
  std::optional<Prediction> predict(const std::string&, const Params&) const override { return std::nullopt; }
};
LADDER_REGISTER_PROBLEM(TestTransfers);
class CheapCopiesRung : public CopyRung {
 public:
  using CopyRung::CopyRung;
  void compute() override {
    CopyRung::compute();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
};
class SlowUploadRung final : public CheapCopiesRung {
 public:
  using CheapCopiesRung::CheapCopiesRung;
  void upload() override { std::this_thread::sleep_for(std::chrono::milliseconds(1)); }  // half of compute
};
class DeviceClockRung final : public CheapCopiesRung {
 public:
  using CheapCopiesRung::CheapCopiesRung;
  bool compute_timed_on_host_clock() const override { return false; }
};
LADDER_REGISTER_RUNG(test_transfers, cheap_copies, CheapCopiesRung);
LADDER_REGISTER_RUNG(test_transfers, slow_upload, SlowUploadRung);
LADDER_REGISTER_RUNG(test_transfers, device_clock, DeviceClockRung);

TEST(ParamsTest, RefusesUnknownOutOfRangeAndMalformedValues) {
  auto problem = make_problem("vector_add");
  auto message = [&](std::map<std::string, std::string> values) -> std::string {
    try {
      problem->resolve("tiny", Params(values));
    } catch (const UsageError& error) {
      return error.what();
    }
    return "accepted";
  };
  EXPECT_NE(message({{"m", "5"}}).find("unknown parameter 'm' for vector_add; did you mean 'n'? (accepted: n)"), std::string::npos);
  EXPECT_NE(message({{"n", "0"}}).find("out of range"), std::string::npos);
  EXPECT_NE(message({{"n", "2.5"}}).find("must be an integer"), std::string::npos);
  EXPECT_NE(message({{"n", "ten"}}).find("not a number"), std::string::npos);
  EXPECT_EQ(message({{"n", "12"}}), "accepted");
  EXPECT_THROW(problem->resolve("huge", {}), UsageError);
}

TEST(CheckTest, NamesTheFirstMismatchAndCountsThemAll) {
  Array expected(DType::f32, {6});
  Array got = expected;
  got.view<float>()[2] = 1.5f;
  got.view<float>()[4] = -0.0f;  // bit-exact: -0 is not +0
  CheckResult result = check_identical({{"c", got}}, {{"c", expected}});
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.detail, "output 'c' index 2: expected 0, got 1.5 (2 of 6 differ)");
  EXPECT_EQ(result.figures["mismatches"], 2);
  EXPECT_TRUE(check_identical({{"c", expected}}, {{"c", expected}}).ok);
  EXPECT_FALSE(check_identical({{"c", Array(DType::f32, {5})}}, {{"c", expected}}).ok);
  EXPECT_FALSE(check_identical({}, {{"c", expected}}).ok);
  // In an image or a stack, the mismatch is named by its place, not a flat index.
  Array image(DType::u8, {3, 5}), stack(DType::u8, {2, 3, 5});
  Array wrong_image = image, wrong_stack = stack;
  wrong_image.view<std::uint8_t>()[2 * 5 + 4] = 1;
  wrong_stack.view<std::uint8_t>()[15 + 1 * 5 + 2] = 1;
  EXPECT_EQ(check_identical({{"mask", wrong_image}}, {{"mask", image}}).detail,
            "output 'mask' at (row 2, column 4): expected 0, got 1 (1 of 15 differ)");
  EXPECT_EQ(check_identical({{"mask", wrong_stack}}, {{"mask", stack}}).detail,
            "output 'mask' at (frame 1, row 1, column 2): expected 0, got 1 (1 of 30 differ)");
}

class HarnessTest : public ::testing::Test {
 protected:
  nlohmann::json run(const std::string& exercise, bool& any_failed, Params overrides = {},
                     bool derive_cheap_transfers = true) {
    TimingPolicy policy{0.001, 3, 20, 60};
    policy.derive_cheap_transfers = derive_cheap_transfers;
    Ceilings ceilings;
    ceilings.host_bytes_per_s = 10e9;
    std::ostringstream progress;
    Harness harness(RunOptions{}, policy, ceilings, progress);
    RunRequest request{exercise, "tiny", overrides, {}, 1};
    return harness.run(request, any_failed);
  }
  // A copy, not a reference: callers may pass a temporary result.
  static nlohmann::json row(const nlohmann::json& result, const std::string& rung) {
    for (const auto& r : result["rungs"])
      if (r["rung"] == rung) return r;
    throw std::runtime_error("no row " + rung);
  }
};

TEST_F(HarnessTest, AWrongRungIsFailedWithTheMismatchAndLeftOutOfSpeedups) {
  bool any_failed = false;
  nlohmann::json result = run("test_copy", any_failed);
  EXPECT_TRUE(any_failed);
  EXPECT_EQ(row(result, "naive")["status"], "ok");
  const nlohmann::json serial = row(result, "serial");
  EXPECT_EQ(serial["status"], "failed");
  EXPECT_NE(serial["reason"].get<std::string>().find("index 3: expected 9, got 10"), std::string::npos);
  EXPECT_FALSE(serial.contains("timings"));
  EXPECT_TRUE(row(result, "naive")["timings"]["speedup"]["vs_serial"]["compute"].is_null());
}

TEST_F(HarnessTest, ARungThatAddsIntoItsOutputFailsWhereverItClearsIt) {
  bool any_failed = false;
  nlohmann::json result = run("test_copy", any_failed);
  // Never cleared: the output starts as garbage (0xA5 bytes), not zeros.
  const nlohmann::json adds = row(result, "adds");
  EXPECT_EQ(adds["status"], "failed");
  EXPECT_NE(adds["reason"].get<std::string>().find("wrong output: output 'y' index 0: expected 0, got "),
            std::string::npos)
      << adds["reason"];
  // Cleared in prepare() only: right once, wrong after the timed repetitions.
  const nlohmann::json clears_once = row(result, "clears_once");
  EXPECT_EQ(clears_once["status"], "failed");
  EXPECT_NE(clears_once["reason"].get<std::string>().find("wrong output after the timed repetitions"),
            std::string::npos)
      << clears_once["reason"];
  EXPECT_EQ(row(result, "naive")["status"], "ok");
}

TEST(RunOnceTest, RunsComputeTwiceOnGarbageSoThatAddingRungsFail) {
  // What `ladder check` and the rung tests use.
  const std::unique_ptr<Problem> made = make_problem("test_copy");
  const Problem& problem = *made;
  const Params params = problem.resolve("tiny", {});
  const Arrays inputs = problem.generate(params, 1);
  const Arrays expected = problem.reference(inputs, params);
  for (const char* rung : {"adds", "clears_once"}) {
    SCOPED_TRACE(rung);
    EXPECT_FALSE(problem.check(run_once(*find_rung("test_copy", rung), inputs, params, {}, problem), expected).ok);
  }
  EXPECT_TRUE(problem.check(run_once(*find_rung("test_copy", "naive"), inputs, params, {}, problem), expected).ok);
}

TEST_F(HarnessTest, ARungPredictedToRunPastTheBudgetIsSkippedWithTheReason) {
  bool any_failed = false;
  nlohmann::json result = run("test_copy", any_failed, Params(std::map<std::string, std::string>{{"n", "1000"}}));
  const nlohmann::json naive = row(result, "naive");
  EXPECT_EQ(naive["status"], "skipped");
  EXPECT_NE(naive["reason"].get<std::string>().find("predicted 3.6e+03 s per run (test: quadratic), over the run's "
                                                    "time budget of 60 s"),
            std::string::npos)
      << naive["reason"];
  // At n = 10 the prediction (0.36 s) is inside the budget: it runs.
  EXPECT_EQ(row(run("test_copy", any_failed), "naive")["status"], "ok");
}

TEST_F(HarnessTest, EveryRungOfVectorAddIsCheckedTimedOrSkippedWithAReason) {
  bool any_failed = false;
  nlohmann::json result = run("vector_add", any_failed);
  EXPECT_FALSE(any_failed);
  std::size_t cpp_rungs = 0;
  for (const auto& r : result["rungs"]) cpp_rungs += r["backend"] != "python";
  ASSERT_EQ(cpp_rungs, 7u);  // the five and two openmp_target, then the Python rungs
  ASSERT_GT(result["rungs"].size(), cpp_rungs);
  for (const auto& r : result["rungs"]) {
    SCOPED_TRACE(r["rung"].get<std::string>());
    if (r["status"] == "skipped" || r["status"] == "not_implemented") {
      EXPECT_FALSE(r["reason"].get<std::string>().empty());
      EXPECT_NE(r["rung"], "naive");
      EXPECT_NE(r["rung"], "serial");
      continue;
    }
    ASSERT_EQ(r["status"], "ok") << r.dump();
    EXPECT_TRUE(r["check"]["ok"].get<bool>());
    const auto& t = r["timings"];
    for (const char* figure : {"compute", "transfer", "upload", "download"}) {
      EXPECT_GE(t[figure]["repetitions"].get<int>(), 3) << figure;
      EXPECT_LE(t[figure]["min_s"].get<double>(), t[figure]["median_s"].get<double>());
      EXPECT_LE(t[figure]["median_s"].get<double>(), t[figure]["max_s"].get<double>());
    }
    EXPECT_GT(t["compute"]["median_s"].get<double>(), 0);
    EXPECT_NEAR(t["speedup"]["vs_naive"]["compute"].get<double>(),
                row(result, "naive")["timings"]["compute"]["median_s"].get<double>() / t["compute"]["median_s"].get<double>(),
                1e-12);
    // This test gives the host's ceiling only: GPU rows have none to compare with.
    const auto& fraction = t["fraction_of_ceiling"]["compute"];
    if (r["device_kind"] == "cpu") {
      EXPECT_GT(fraction.get<double>(), 0);
    } else {
      EXPECT_TRUE(fraction.is_null());
    }
  }
  // Without a GPU the CUDA rung is skipped, never passed.
  if (!backend_availability(Backend::cuda, {}).available) {
    EXPECT_EQ(row(result, "cuda")["status"], "skipped");
  }
}

TEST_F(HarnessTest, ReplicatesPoolTheSamplesKeepEachMedianAndMeasureTheirSpread) {
  bool any_failed = false;
  std::vector<nlohmann::json> passes = {run("vector_add", any_failed), run("vector_add", any_failed),
                                        run("vector_add", any_failed)};
  // Make the serial rung's three replicate medians known: 1, 2 and 4 ms.
  const double medians[] = {1e-3, 2e-3, 4e-3};
  for (int r = 0; r < 3; ++r)
    for (auto& row : passes[r]["rungs"])
      if (row["rung"] == "serial") {
        row["timings"]["compute"]["median_s"] = medians[r];
        row["timings"]["compute"]["samples_s"] = {medians[r], medians[r]};
      }
  nlohmann::json merged = merge_replicates(passes);
  EXPECT_EQ(merged["replicates"], 3);
  const nlohmann::json serial = row(merged, "serial");
  const auto& compute = serial["timings"]["compute"];
  EXPECT_EQ(compute["replicate_medians_s"], (std::vector<double>{1e-3, 2e-3, 4e-3}));
  EXPECT_DOUBLE_EQ(compute["replicate_spread"].get<double>(), (4e-3 - 1e-3) / 2e-3);
  EXPECT_EQ(compute["samples_s"].size(), 6u) << "every replicate's samples, pooled";
  EXPECT_DOUBLE_EQ(compute["median_s"].get<double>(), 2e-3);
  EXPECT_TRUE(serial["high_spread"].get<bool>());
  // Speed-ups come from the pooled medians.
  EXPECT_NEAR(row(merged, "naive")["timings"]["speedup"]["vs_serial"]["compute"].get<double>(),
              2e-3 / row(merged, "naive")["timings"]["compute"]["median_s"].get<double>(), 1e-12);
  // A rung that failed in one replicate is failed, and says in which.
  passes[1]["rungs"][0] = {{"rung", "naive"}, {"backend", "host"}, {"status", "failed"}, {"reason", "boom"}};
  EXPECT_EQ(row(merge_replicates(passes), "naive")["reason"], "in replicate 2: boom");
  EXPECT_EQ(replicate_spread({5.0}), 0);
}

TEST_F(HarnessTest, ACpuRungWithCheapCopiesHasItsTransferFigureDerivedEveryOtherTimesRoundTrips) {
  bool any_failed = false;
  const nlohmann::json result = run("test_transfers", any_failed);
  ASSERT_FALSE(any_failed);
  // Copies that cost nothing next to 2 ms of compute, on the host's clock:
  // compute's own samples, each plus the copies' medians.
  const nlohmann::json cheap = row(result, "cheap_copies")["timings"];
  ASSERT_TRUE(cheap["transfer"].contains("derived")) << cheap["transfer"].dump();
  EXPECT_EQ(cheap["transfer"]["repetitions"], cheap["compute"]["repetitions"]);
  EXPECT_EQ(cheap["upload"]["repetitions"], 3);
  EXPECT_NEAR(cheap["transfer"]["median_s"].get<double>(),
              cheap["compute"]["median_s"].get<double>() + cheap["upload"]["median_s"].get<double>() +
                  cheap["download"]["median_s"].get<double>(),
              1e-12);
  EXPECT_GE(cheap["compute"]["median_s"].get<double>(), 2e-3);
  // An upload of half the compute, or a compute not on the host's clock: round trips.
  const nlohmann::json slow_upload = row(result, "slow_upload")["timings"];
  EXPECT_FALSE(slow_upload["transfer"].contains("derived"));
  EXPECT_GE(slow_upload["upload"]["median_s"].get<double>(), 1e-3);
  EXPECT_GE(slow_upload["transfer"]["median_s"].get<double>(), 3e-3) << "upload + compute, timed together";
  EXPECT_FALSE(row(result, "device_clock")["timings"]["transfer"].contains("derived"));
  // --round-trips: none derived.
  EXPECT_FALSE(row(run("test_transfers", any_failed, {}, false), "cheap_copies")["timings"]["transfer"].contains(
      "derived"));
  // Replicates keep the mark.
  EXPECT_TRUE(row(merge_replicates({result, run("test_transfers", any_failed)}), "cheap_copies")["timings"]["transfer"]
                  .contains("derived"));
}

double bytes_of(const Arrays& arrays) {
  double bytes = 0;
  for (const auto& [name, array] : arrays) bytes += static_cast<double>(array.bytes());
  return bytes;
}

// The memory check's prediction, for every problem on its tiny size and
// every check case (small, awkward sizes): the shapes it expects are the
// shapes generate() makes, and its bytes cover what the case allocates
// (inputs, the reference's outputs, a rung's outputs) without being absurd.
TEST(TransferBoundTest, IsTheSlowerDirectionAloneOrBothAtTheirJointRate) {
  DeviceCeilings link;
  const Work work{.bytes = 0, .operations = 0, .bytes_in = 6e9, .bytes_out = 3e9};
  EXPECT_EQ(transfer_bound(link, work), 0) << "an unmeasured link bounds nothing";
  link.host_to_device_pinned = 50e9, link.device_to_host_pinned = 25e9;
  // Full duplex, with no joint rate measured: the slower direction, 0.12 s each way.
  EXPECT_DOUBLE_EQ(transfer_bound(link, work), 0.12);
  link.both_directions_pinned = 100e9;  // the host feeds both at full rate: no change
  EXPECT_DOUBLE_EQ(transfer_bound(link, work), 0.12);
  link.both_directions_pinned = 60e9;  // it does not: 9 GB at 60 GB/s
  EXPECT_DOUBLE_EQ(transfer_bound(link, work), 0.15);
}

TEST(CeilingFractionTest, EachRowIsJudgedAgainstTheCeilingOfWhatBoundsIt) {
  Ceilings ceilings;
  ceilings.host_bytes_per_s = 100e9;
  DeviceCeilings gpu;
  gpu.copy_bytes_per_s = 3000e9, gpu.fp32_operations_per_s = 60e12;
  gpu.host_to_device_pinned = gpu.device_to_host_pinned = 50e9;
  ceilings.cuda = gpu;
  DeviceCeilings opencl_gpu = gpu;
  opencl_gpu.fp32_operations_per_s = 0;  // not measured on OpenCL
  ceilings.opencl = opencl_gpu;
  RungTimings timings;
  timings.compute.median = 1e-3, timings.transfer.median = 4e-3;
  Work work{.bytes = 60e6, .operations = 30e9, .bytes_in = 40e6, .bytes_out = 20e6};

  // A CPU row: bytes over the host's bandwidth, both figures.
  CeilingFraction host = fraction_of_ceiling(ceilings, Backend::openmp, DeviceKind::cpu, work, timings);
  EXPECT_EQ(host.ceiling, "host memory bandwidth");
  EXPECT_DOUBLE_EQ(*host.compute, 0.6);
  EXPECT_DOUBLE_EQ(*host.transfer, 0.6);
  EXPECT_EQ(host.working_set_bytes, 0);
  // The probe at the row's own working set, where it is higher (the set is
  // partly in the caches): that rate is the ceiling, and the row says so.
  // Lower, or measured at another size, it changes nothing.
  ceilings.host_bytes_per_s_at = {{60e6, 120e9}, {70e6, 200e9}};
  CeilingFraction cached = fraction_of_ceiling(ceilings, Backend::openmp, DeviceKind::cpu, work, timings);
  EXPECT_DOUBLE_EQ(cached.ceiling_bytes_per_s, 120e9);
  EXPECT_DOUBLE_EQ(*cached.compute, 0.5);
  EXPECT_DOUBLE_EQ(cached.working_set_bytes, 60e6);
  ceilings.host_bytes_per_s_at = {{60e6, 80e9}};
  CeilingFraction slower = fraction_of_ceiling(ceilings, Backend::openmp, DeviceKind::cpu, work, timings);
  EXPECT_DOUBLE_EQ(slower.ceiling_bytes_per_s, 100e9);
  EXPECT_EQ(slower.working_set_bytes, 0);
  ceilings.host_bytes_per_s_at.clear();
  // A memory-bound CUDA row: bytes over the copy bandwidth; its transfer
  // figure over the copies' bound at the link's rate (0.8 ms up, 4 ms taken).
  CeilingFraction memory = fraction_of_ceiling(ceilings, Backend::cuda, DeviceKind::gpu, work, timings);
  EXPECT_EQ(memory.ceiling, "device copy bandwidth");
  EXPECT_DOUBLE_EQ(*memory.compute, 0.02);
  EXPECT_DOUBLE_EQ(memory.transfer_bound_s, 0.8e-3);
  EXPECT_DOUBLE_EQ(*memory.transfer, 0.2);
  // The same on two GPUs (cuda_nccl): over both GPUs' bandwidth, and two links.
  CeilingFraction two = fraction_of_ceiling(ceilings, Backend::cuda, DeviceKind::gpu, work, timings, 2);
  EXPECT_DOUBLE_EQ(two.ceiling_bytes_per_s, 6000e9);
  EXPECT_DOUBLE_EQ(*two.compute, 0.01);
  EXPECT_DOUBLE_EQ(two.transfer_bound_s, 0.4e-3);
  // An all-FP32 problem on CUDA: operations over the FP32 rate, no bandwidth.
  work.fp32_bound = true;
  CeilingFraction fp32 = fraction_of_ceiling(ceilings, Backend::cuda, DeviceKind::gpu, work, timings);
  EXPECT_EQ(fp32.ceiling, "device FP32 rate");
  EXPECT_DOUBLE_EQ(fp32.ceiling_operations_per_s, 60e12);
  EXPECT_EQ(fp32.ceiling_bytes_per_s, 0);
  EXPECT_DOUBLE_EQ(*fp32.compute, 0.5);
  // A rung that does fewer operations than the problem (Rung::operations):
  // by whichever of its own operations and the bytes takes longer. 3e9
  // operations take 50 µs at 60 TFLOP/s, the 60 MB 20 µs: the FP32 rate.
  // 0.3e9 take 5 µs: the bytes bound it, over the copy bandwidth.
  Work own = work;
  own.rung_operations = true, own.operations = 3e9;
  CeilingFraction fewer = fraction_of_ceiling(ceilings, Backend::cuda, DeviceKind::gpu, own, timings);
  EXPECT_EQ(fewer.ceiling, "device FP32 rate");
  EXPECT_DOUBLE_EQ(*fewer.compute, 0.05);
  own.operations = 0.3e9;
  CeilingFraction bytes = fraction_of_ceiling(ceilings, Backend::cuda, DeviceKind::gpu, own, timings);
  EXPECT_EQ(bytes.ceiling, "device copy bandwidth");
  EXPECT_DOUBLE_EQ(*bytes.compute, 0.02);
  // On the host: its memory bandwidth while no FP32 rate is measured, then
  // operations over the FP32 rate, both figures.
  EXPECT_EQ(fraction_of_ceiling(ceilings, Backend::openmp, DeviceKind::cpu, work, timings).ceiling,
            "host memory bandwidth");
  ceilings.host_fp32_operations_per_s = 100e12;
  CeilingFraction host_fp32 = fraction_of_ceiling(ceilings, Backend::openmp, DeviceKind::cpu, work, timings);
  EXPECT_EQ(host_fp32.ceiling, "host FP32 rate");
  EXPECT_DOUBLE_EQ(host_fp32.ceiling_operations_per_s, 100e12);
  EXPECT_DOUBLE_EQ(*host_fp32.compute, 0.3);
  EXPECT_DOUBLE_EQ(*host_fp32.transfer, 0.3);
  // A host rung's own operations, where its bytes take longer (60 MB at 100
  // GB/s, 0.6 ms; 0.3e9 operations at 100 TFLOP/s, 3 µs): the bandwidth.
  CeilingFraction host_own = fraction_of_ceiling(ceilings, Backend::openmp, DeviceKind::cpu, own, timings);
  EXPECT_EQ(host_own.ceiling, "host memory bandwidth");
  EXPECT_DOUBLE_EQ(*host_own.compute, 0.6);
  // The same on OpenCL, where no FP32 rate is measured: the copy bandwidth,
  // and no transfer bound (the link is measured for CUDA only).
  CeilingFraction opencl = fraction_of_ceiling(ceilings, Backend::opencl, DeviceKind::gpu, work, timings);
  EXPECT_EQ(opencl.ceiling, "device copy bandwidth");
  EXPECT_DOUBLE_EQ(*opencl.compute, 0.02);
  EXPECT_FALSE(opencl.transfer.has_value());
  // No device ceilings measured: nothing to divide by.
  ceilings.cuda.reset();
  EXPECT_FALSE(fraction_of_ceiling(ceilings, Backend::cuda, DeviceKind::gpu, work, timings).compute.has_value());
}

TEST(CeilingFractionTest, AnOpenClDeviceThatIsTheCudaGpuTakesTheBetterProbe) {
  DeviceCeilings cuda{
      .device = "NVIDIA H100 80GB HBM3", .copy_bytes_per_s = 3.3e12, .bandwidth_kernel = "STREAM add, 50 MiB arrays"};
  DeviceCeilings opencl{.device = "NVIDIA H100 80GB HBM3 (NVIDIA CUDA)",
                        .copy_bytes_per_s = 2.9e12,
                        .bandwidth_kernel = "clEnqueueCopyBuffer, 512 MiB buffers"};
  DeviceCeilings same = opencl;
  EXPECT_TRUE(adopt_cuda_bandwidth_of_the_same_gpu(same, cuda));
  EXPECT_EQ(same.copy_bytes_per_s, 3.3e12);
  EXPECT_EQ(same.bandwidth_kernel, "CUDA's STREAM add, 50 MiB arrays, the same GPU");
  // Another device (a CPU platform, another GPU model, a name without the
  // platform), or a CUDA probe that found less: OpenCL keeps its own.
  for (const char* other : {"cpu-skylake-avx512-Intel(R) Xeon(R) Processor", "NVIDIA H100 80GB HBM3e (NVIDIA CUDA)",
                            "NVIDIA H100 80GB HBM3"}) {
    DeviceCeilings elsewhere = opencl;
    elsewhere.device = other;
    EXPECT_FALSE(adopt_cuda_bandwidth_of_the_same_gpu(elsewhere, cuda)) << other;
    EXPECT_EQ(elsewhere.copy_bytes_per_s, 2.9e12) << other;
  }
  DeviceCeilings slower = cuda;
  slower.copy_bytes_per_s = 2.5e12;
  DeviceCeilings kept = opencl;
  EXPECT_FALSE(adopt_cuda_bandwidth_of_the_same_gpu(kept, slower));
  EXPECT_EQ(kept.bandwidth_kernel, "clEnqueueCopyBuffer, 512 MiB buffers");
}

TEST(CeilingFractionTest, TheHostFp32RateIsMeasuredOnEveryThread) {
  // Finite, and above 10 MFLOP/s whatever the build: a sanitizer build at
  // -O0 does 300 MFLOP/s on the 2-core development machine, a release
  // build about 350 GFLOP/s.
  const double rate = measure_host_fp32_rate();
  EXPECT_TRUE(std::isfinite(rate));
  EXPECT_GT(rate, 1e7);
}

TEST(HarnessMemoryTest, EachProblemPredictsWhatItsCasesAllocateAndAtMost20TimesThat) {
  for (const auto& name : exercise_names()) {
    auto problem = make_problem(name);
    std::vector<Params> cases = {problem->resolve("tiny", {})};
    for (const auto& check_case : problem->check_cases()) cases.push_back(problem->resolve("tiny", check_case.params));
    for (const auto& params : cases) {
      std::string where = name;
      for (const auto& [key, value] : params.values()) where += " " + key + "=" + value;
      const ArrayShapes shapes = problem->input_shapes(params);
      const Arrays inputs = problem->generate(params, 1);
      ASSERT_EQ(shapes.size(), inputs.size()) << where;
      for (const auto& [input, array] : inputs) {
        ASSERT_TRUE(shapes.count(input)) << where << ": " << input;
        EXPECT_EQ(shapes.at(input).dtype, array.dtype()) << where << ": " << input;
        EXPECT_EQ(shapes.at(input).shape, array.shape()) << where << ": " << input;
      }
      const double allocated =
          bytes_of(inputs) + bytes_of(problem->reference(inputs, params)) + bytes_of(problem->allocate_outputs(inputs, params));
      const double predicted = problem->host_bytes(shapes, params);
      EXPECT_GE(predicted, allocated) << where;
      EXPECT_LE(predicted, 20 * allocated) << where;
    }
  }
}

TEST(HarnessMemoryTest, TheLimitIsTheEnvironmentsWhereSetElseWhatTheMachineHasAvailable) {
  ::unsetenv("LADDER_MEMORY_LIMIT_MB");
  const MemoryLimit machine = host_memory_limit();
  EXPECT_FALSE(machine.from_environment);
  EXPECT_GT(machine.bytes, 16.0 * 1024 * 1024) << "a machine that runs the tests has more than 16 MiB available";
  ::setenv("LADDER_MEMORY_LIMIT_MB", "1.5", 1);
  EXPECT_EQ(host_memory_limit().bytes, 1.5 * 1024 * 1024);
  EXPECT_TRUE(host_memory_limit().from_environment);
  for (const char* bad : {"0", "-3", "lots", "12MB"}) {
    ::setenv("LADDER_MEMORY_LIMIT_MB", bad, 1);
    EXPECT_THROW(host_memory_limit(), UsageError) << bad;
  }
  ::unsetenv("LADDER_MEMORY_LIMIT_MB");
}

TEST(HarnessMemoryTest, TheMessageNamesBothFigures) {
  EXPECT_EQ(format_bytes(17), "17 bytes");
  EXPECT_EQ(format_bytes(3 * 1024), "3.0 KiB");
  EXPECT_EQ(format_bytes(24.0 * 1024 * 1024 * 1024), "24.0 GiB");
  const MemoryLimit limit{7.5 * 1024 * 1024 * 1024, false};
  EXPECT_NO_THROW(refuse_unless_memory_suffices(limit.bytes, limit, "x", "y"));
  try {
    refuse_unless_memory_suffices(24.0 * 1024 * 1024 * 1024, limit, "vector_add at n=2147483648", "try less");
    FAIL() << "not refused";
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(),
                 "vector_add at n=2147483648 needs about 24.0 GiB of host memory; this machine has 7.5 GiB available "
                 "(LADDER_MEMORY_LIMIT_MB to change the limit); try less");
  }
}

// The rung suites are instantiated from each problem's ladder
// (testing::rung_cases), and ladder runs what the ladder names: a rung that
// is built but not on it would never be run, checked or tested. A rung that
// rungs() does not name joins the ladder at its end (ladder_rungs).
TEST(RegistryTest, EveryBuiltRungIsOnItsProblemsLadder) {
  for (const std::string& exercise : exercise_names()) {
    const std::vector<std::string> ladder = ladder_rungs(*make_problem(exercise));
    for (const std::string& track : {kSolutionsTrack, kExercisesTrack})
      for (const std::string& rung : registered_rungs(exercise, track))
        EXPECT_NE(std::find(ladder.begin(), ladder.end(), rung), ladder.end())
            << exercise << " " << rung << " (" << track << " track) is built but not on " << exercise << "'s ladder";
  }
}

#ifdef LADDER_HAVE_MPI
// An MPI rung with a LADDER_TODO that only one rank reaches (issue 47):
// rank 1 in compute, or rank 0 in prepare. Test-only rungs of the planted
// track, which neither `ladder` nor the rung tests see.
template <int kRank, MpiRung::Step kStep>
class StopsOnOneRank final : public MpiRung {
 public:
  explicit StopsOnOneRank(const RungContext& context) : MpiRung(context) {}

 protected:
  void prepare_ranks(const Arrays*, Arrays*) override { stop_at(Step::prepare); }
  void compute_ranks() override { stop_at(Step::compute); }

 private:
  void stop_at(Step step) const {
    if (step == kStep && rank() == kRank) LADDER_TODO("a TODO that rank " + std::to_string(kRank) + " alone reaches");
  }
};
using StopsOnRank1InCompute = StopsOnOneRank<1, MpiRung::Step::compute>;
using StopsOnRank0InPrepare = StopsOnOneRank<0, MpiRung::Step::prepare>;
LADDER_REGISTER_RUNG_IN_TRACK(testing::kPlantedTrack, test_copy, mpi_todo_on_rank_1, StopsOnRank1InCompute);
LADDER_REGISTER_RUNG_IN_TRACK(testing::kPlantedTrack, test_copy, mpi_todo_on_rank_0, StopsOnRank0InPrepare);

// This program again as 2 ranks under mpirun, running the current test
// alone: (pclose's status, everything the ranks printed).
std::pair<int, std::string> this_test_on_two_ranks() {
  std::array<char, 4096> self{};
  if (readlink("/proc/self/exe", self.data(), self.size() - 1) <= 0) return {-1, "cannot read /proc/self/exe"};
  setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);  // Open MPI's consent where the tests run as root
  setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string command = std::string("timeout 60 mpirun -np 2 --oversubscribe --bind-to none '") + self.data() +
                              "' --gtest_filter=" + test->test_suite_name() + "." + test->name() + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed"};
  std::string output;
  std::array<char, 4096> buffer;
  while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) output.append(buffer.data(), n);
  return {pclose(pipe), output};
}

// An MPI rung whose data stays on each rank (issue 60): each rank copies
// its own part of x, kept since prepare_ranks, into its own part of y, and
// the parts reach rank 0's y only in collect_for_check. Its output is right
// only where the harness collects after the download it checks.
class CopiesItsOwnPart final : public MpiRung {
 public:
  explicit CopiesItsOwnPart(const RungContext& context) : MpiRung(context) {}
  static inline int collects_on_rank_0 = 0;

 protected:
  void prepare_ranks(const Arrays* inputs, Arrays* outputs) override {
    long long n = rank() == 0 ? static_cast<long long>(inputs->at("x").size()) : 0;
    LADDER_MPI(MPI_Bcast(&n, 1, MPI_LONG_LONG, 0, communicator()));
    parts_ = parts_of(n, ranks());
    if (rank() == 0) y_ = outputs->at("y").view<std::int32_t>().data();
    x_part_.resize(parts_.counts[rank()]);
    y_part_.resize(parts_.counts[rank()]);
    const std::int32_t* x = rank() == 0 ? inputs->at("x").view<std::int32_t>().data() : nullptr;
    LADDER_MPI(MPI_Scatterv(x, parts_.counts.data(), parts_.offsets.data(), MPI_INT32_T, x_part_.data(),
                            parts_.counts[rank()], MPI_INT32_T, 0, communicator()));
  }
  void compute_ranks() override { std::copy(x_part_.begin(), x_part_.end(), y_part_.begin()); }
  void collect_for_check() override {
    if (rank() == 0) ++collects_on_rank_0;
    LADDER_MPI(MPI_Gatherv(y_part_.data(), parts_.counts[rank()], MPI_INT32_T, y_, parts_.counts.data(),
                           parts_.offsets.data(), MPI_INT32_T, 0, communicator()));
  }

 private:
  Parts parts_;
  std::int32_t* y_ = nullptr;  // rank 0: the harness's output
  std::vector<std::int32_t> x_part_, y_part_;
};
LADDER_REGISTER_RUNG_IN_TRACK(testing::kPlantedTrack, test_copy, mpi_local, CopiesItsOwnPart);

// The test is this program again as 2 ranks under mpirun, running this test
// alone: there rank 0 steps the rungs, as the harness would, and must see
// each as not implemented, while rank 1 follows it as in `ladder`. Before
// the ranks agreed on a LADDER_TODO, the job aborted (MPI_Abort); a timeout
// stands for a hang.
TEST(MpiRungTest, ATodoThatOneRankReachesIsNotImplementedOnRankZeroAndNoRankAborts) {
  if (launched_by_mpirun()) {
    if (const std::optional<int> status = start_mpi_rank()) {  // rank 1: follow rank 0 until it quits
      EXPECT_EQ(*status, 0);
      return;
    }
    const std::pair<const char*, const char*> rungs[] = {
        {"mpi_todo_on_rank_1", "rank 1 alone reaches (reached on rank 1 of 2)"},  // rank 0 learns rank 1's message
        {"mpi_todo_on_rank_0", "rank 0 alone reaches"}};
    for (const auto& [name, message] : rungs) {
      RungContext context;
      context.track = testing::kPlantedTrack;
      const RungEntry* entry = find_rung("test_copy", name, testing::kPlantedTrack);
      ASSERT_NE(entry, nullptr) << name;
      auto rung = entry->make(context);
      Arrays inputs, outputs;
      try {
        rung->prepare(inputs, outputs);
        rung->upload();
        rung->compute();
        rung->download();
        ADD_FAILURE() << name << ": every step went through on rank 0";
      } catch (const NotImplemented& error) {
        EXPECT_NE(std::string(error.what()).find(message), std::string::npos) << name << ": " << error.what();
        std::cout << "rank 0: " << name << " is not implemented: " << error.what() << std::endl;
      }
    }
    return;
  }
  if (std::system("command -v mpirun >/dev/null 2>&1") != 0) GTEST_SKIP() << "mpirun is not installed";
  const auto [status, output] = this_test_on_two_ranks();
  ASSERT_TRUE(WIFEXITED(status)) << output;
  EXPECT_NE(WEXITSTATUS(status), 124) << "the job hung:\n" << output;
  EXPECT_EQ(WEXITSTATUS(status), 0) << output;
  EXPECT_EQ(output.find("MPI_Abort"), std::string::npos) << output;
  EXPECT_NE(output.find("rank 0: mpi_todo_on_rank_1 is not implemented"), std::string::npos) << output;
  EXPECT_NE(output.find("rank 0: mpi_todo_on_rank_0 is not implemented"), std::string::npos) << output;
}

// run_once (what `ladder check` runs) of the rung above on 2 ranks: y equals
// x, which only its collect_for_check puts on rank 0, called once.
TEST(MpiRungTest, ARungThatKeepsItsDataOnEachRankIsCollectedForTheCheck) {
  if (launched_by_mpirun()) {
    if (const std::optional<int> status = start_mpi_rank()) {  // rank 1: follow rank 0 until it quits
      EXPECT_EQ(*status, 0);
      return;
    }
    const std::unique_ptr<Problem> problem = make_problem("test_copy");
    Params params;
    params.set("n", "11");  // not a multiple of the ranks
    const Arrays inputs = problem->generate(params, 1);
    RunOptions options;
    const RungEntry* entry = find_rung("test_copy", "mpi_local", testing::kPlantedTrack);
    ASSERT_NE(entry, nullptr);
    const CheckResult result = problem->check(run_once(*entry, inputs, params, options, *problem, 2),
                                              problem->reference(inputs, params));
    EXPECT_TRUE(result.ok) << result.detail;
    EXPECT_EQ(CopiesItsOwnPart::collects_on_rank_0, 1);
    std::cout << "rank 0: mpi_local " << (result.ok ? "matches" : "differs") << ", collected "
              << CopiesItsOwnPart::collects_on_rank_0 << " time(s)" << std::endl;
    return;
  }
  if (std::system("command -v mpirun >/dev/null 2>&1") != 0) GTEST_SKIP() << "mpirun is not installed";
  const auto [status, output] = this_test_on_two_ranks();
  ASSERT_TRUE(WIFEXITED(status)) << output;
  EXPECT_EQ(WEXITSTATUS(status), 0) << output;
  EXPECT_NE(output.find("rank 0: mpi_local matches, collected 1 time(s)"), std::string::npos) << output;
}
#endif

}  // namespace
}  // namespace ladder
