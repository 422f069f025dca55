// vector_add: every rung gives the reference bit for bit on inputs of
// awkward sizes; rungs that cannot run here are skipped, never passed.
#include <gtest/gtest.h>

#include "bench/problems/vector_add/given/naive.hpp"
#include "ladder/error.hpp"
#include "ladder/harness.hpp"
#include "ladder/registry.hpp"
#include "rung_test.hpp"
#ifdef LADDER_HAVE_OPENCL
#include "ladder/opencl.hpp"
#endif

namespace ladder {
namespace {

using testing::RungCase;

class VectorAddRungTest : public ::testing::TestWithParam<RungCase> {};

TEST_P(VectorAddRungTest, MatchesTheReferenceBitForBitOnAwkwardSizes) {
  // The check cases, and one above 2^22 that is odd.
  testing::expect_rung_matches_reference("vector_add", GetParam(),
                                         {Params(std::map<std::string, std::string>{{"n", "4194307"}})});
}

INSTANTIATE_TEST_SUITE_P(Rungs, VectorAddRungTest, ::testing::ValuesIn(testing::rung_cases("vector_add")),
                         testing::rung_case_name);

TEST(VectorAddTest, ReferenceIsTheFloat32SumOfTheInputs) {
  auto problem = make_problem("vector_add");
  Params params = problem->resolve("tiny", Params(std::map<std::string, std::string>{{"n", "1001"}}));
  Arrays inputs = problem->generate(params, 3);
  Arrays c = problem->reference(inputs, params);
  auto a = inputs.at("a").view<float>();
  auto b = inputs.at("b").view<float>();
  ASSERT_EQ(c.at("c").size(), 1001u);
  for (std::size_t i = 0; i < 1001; ++i) {
    // Two floats of magnitude < 1000 sum exactly in double; rounding that
    // to float is IEEE float addition.
    ASSERT_EQ(c.at("c").view<float>()[i], static_cast<float>(static_cast<double>(a[i]) + b[i]));
    ASSERT_GE(a[i], -1000.0f);
    ASSERT_LT(a[i], 1000.0f);
  }
}

TEST(VectorAddTest, RefusesWrongDtypesShapesAndEmptyInputs) {
  auto problem = make_problem("vector_add");
  auto refused = [&](Array a, Array b, const std::string& fragment) {
    testing::expect_usage_error([&] { problem->validate({{"a", a}, {"b", b}}, {}); }, fragment);
  };
  refused(Array(DType::f64, {3}), Array(DType::f32, {3}), "input a is a float64 array of shape (3,)");
  refused(Array(DType::f32, {3}), Array(DType::i32, {3}), "vector_add takes float32");
  refused(Array(DType::f32, {3}), Array(DType::f32, {4}), "differ in shape");
  refused(Array(DType::f32, {0}), Array(DType::f32, {0}), "empty");
  EXPECT_NO_THROW(problem->validate({{"a", Array(DType::f32, {2, 3})}, {"b", Array(DType::f32, {2, 3})}}, {}));
}

TEST(VectorAddTest, WorkIsTwelveBytesAndOneAddPerElement) {
  auto problem = make_problem("vector_add");
  Work work = problem->work({{"a", Array(DType::f32, {10})}, {"b", Array(DType::f32, {10})}}, {});
  EXPECT_EQ(work.bytes, 120);
  EXPECT_EQ(work.operations, 10);
  EXPECT_EQ(work.bytes_in, 80);
  EXPECT_EQ(work.bytes_out, 40);
}

#ifdef LADDER_HAVE_OPENCL
// The opencl rung writes the host program itself (HandsOnOpenCL's first
// exercise): a failed call names the call, the error and the step it
// belongs to, so a participant knows where to look.
TEST(VectorAddTest, AFailedOpenClCallNamesItsErrorAndItsStepOfTheHostProgram) {
  auto message = [](cl_int status, const char* call) {
    try {
      opencl_check(status, call, "opencl.cpp", 58);
    } catch (const DeviceError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(CL_INVALID_KERNEL_NAME, "clCreateKernel"),
            "OpenCL call clCreateKernel failed: CL_INVALID_KERNEL_NAME (-46) at opencl.cpp:58 "
            "(step 3, the program and its kernel, of the host program)");
  EXPECT_NE(message(CL_INVALID_VALUE, "clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count)")
                .find("(step 1, platform, device and context, of the host program)"),
            std::string::npos);
  EXPECT_NE(message(CL_INVALID_QUEUE_PROPERTIES, "clCreateCommandQueue").find("step 2, the command queue"),
            std::string::npos);
  EXPECT_NE(message(CL_MEM_OBJECT_ALLOCATION_FAILURE, "clCreateBuffer").find("step 4, the buffers"), std::string::npos);
  EXPECT_NE(message(CL_INVALID_WORK_GROUP_SIZE, "clEnqueueNDRangeKernel(queue_, kernel_, 1, ...)")
                .find("step 5, the launch and the read-back"),
            std::string::npos);
  // A call outside the five steps names no step; a success throws nothing.
  EXPECT_EQ(message(CL_INVALID_EVENT, "clWaitForEvents"),
            "OpenCL call clWaitForEvents failed: CL_INVALID_EVENT (-58) at opencl.cpp:58");
  EXPECT_EQ(message(CL_SUCCESS, "clCreateKernel"), "no error");
}

// A buffer larger than the device's largest allocation is refused by
// OpenClRung::device_buffer before clCreateBuffer sees it, with a message
// that names the sizes: what every OpenCL rung's input would get.
class AskingForABuffer final : public OpenClRung {
 public:
  explicit AskingForABuffer(const RungContext& context) : OpenClRung(context) {}
  void prepare(const Arrays&, Arrays&) override {
    small_ = device_buffer<float>(CL_MEM_READ_ONLY, 1000);  // fits anywhere
    huge_ = device_buffer<float>(CL_MEM_READ_ONLY, std::size_t{1} << 60);
  }
  void compute() override {}

 private:
  ClBuffer<float> small_, huge_;
};

TEST(VectorAddTest, AnOpenClBufferLargerThanTheDeviceAllowsIsRefusedWithItsSizes) {
  const Availability opencl = backend_availability(Backend::opencl, RunOptions{});
  if (!opencl.available) GTEST_SKIP() << opencl.reason;
  const RungContext context;
  AskingForABuffer rung(context);
  Arrays none;
  try {
    rung.prepare(none, none);
    ADD_FAILURE() << "a buffer of 2^60 floats was accepted";
  } catch (const DeviceError& error) {
    const std::string text = error.what();
    EXPECT_NE(text.find("a buffer of 1152921504606846976 values of 4 bytes does not fit in one allocation on "),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("(at most "), std::string::npos) << text;
  }
}
#endif

// The planted mistake: the naive rung with its loop bound one short
// (i < n - 1), the last element of c never written. A test-only rung of the
// planted track, which neither `ladder` nor the rung tests see; the check
// case named for the mistake must fail it.
class PlantedLastElementMissed final : public vector_add::NaiveVectorAdd {
 public:
  using NaiveVectorAdd::NaiveVectorAdd;

  void compute() override {
    // The mistake: i + 1 < n, where the naive rung has i < n.
    for (std::size_t i = 0; i + 1 < c_.size(); ++i) c_[i] = vector_add::element(a_, i) + vector_add::element(b_, i);
  }
};
LADDER_PLANTED_MISTAKE(vector_add, serial_last_element_missed, PlantedLastElementMissed,
                       "the last element missed (a loop to i < n - 1)");

}  // namespace
}  // namespace ladder
