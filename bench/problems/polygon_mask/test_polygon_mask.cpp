// polygon_mask: every rung gives the reference bit for bit, on the check
// cases and on polygons built to be hard (vertices on pixel rows, pixels on
// edges, polygons far outside the canvas); the reference is the even-odd
// rule; bad input is refused with one clear message.
#include <gtest/gtest.h>
#include <unistd.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>

#include "bench/problems/polygon_mask/given/naive.hpp"
#include "ladder/error.hpp"
#include "ladder/harness.hpp"
#include "ladder/npy.hpp"
#include "ladder/random.hpp"
#include "ladder/registry.hpp"
#include "rung_test.hpp"

namespace ladder {
namespace {

Params canvas(int width, int height) {
  return Params(
      std::map<std::string, std::string>{{"width", std::to_string(width)}, {"height", std::to_string(height)}});
}

Arrays polygon(const std::vector<std::pair<double, double>>& points) {
  Arrays inputs{{"vertices", Array(DType::f64, {points.size(), 2})}};
  auto v = inputs["vertices"].view<double>();
  for (std::size_t i = 0; i < points.size(); ++i) {
    v[2 * i] = points[i].first;
    v[2 * i + 1] = points[i].second;
  }
  return inputs;
}

// N vertices on the integer grid of a canvas (and a little beyond): many
// vertices sit exactly on a pixel row, many pixels exactly on an edge.
Arrays lattice_polygon(std::size_t n, int width, int height, double step, std::uint64_t seed) {
  const CounterRng rng(seed, 7);
  std::vector<std::pair<double, double>> points;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = std::floor(rng.uniform_float64(2 * i) * (width + 4) / step) * step - 2;
    const double y = std::floor(rng.uniform_float64(2 * i + 1) * (height + 4) / step) * step - 2;
    points.push_back({x, y});
  }
  return polygon(points);
}

struct HardCase {
  std::string name;
  Arrays inputs;
  Params params;
};

// Polygons that are not in the generator's comfortable range: the rungs
// must still agree with the reference bit for bit, points on edges included
// (every rung evaluates the reference's crossing test, so even those agree).
std::vector<HardCase> hard_cases() {
  std::vector<HardCase> cases;
  cases.push_back(
      {"mostly outside the canvas", polygon({{-50.3, -20.1}, {300.7, 10.2}, {40.1, 500.9}}), canvas(97, 61)});
  cases.push_back({"integer square", polygon({{2, 2}, {10, 2}, {10, 8}, {2, 8}}), canvas(13, 11)});
  cases.push_back({"diamond through pixel points", polygon({{6, 0}, {12, 6}, {6, 12}, {0, 6}}), canvas(13, 13)});
  cases.push_back({"collinear (no area)", polygon({{1, 1}, {5, 5}, {9, 9}}), canvas(11, 11)});
  cases.push_back({"repeated and closing vertices",
                   polygon({{1.5, 1.5}, {1.5, 1.5}, {20.25, 3}, {7, 30.5}, {1.5, 1.5}}), canvas(33, 37)});
  cases.push_back({"huge coordinates", polygon({{-1e9, 3.3}, {1e9, 40.7}, {0.5, 60.2}, {-3e8, -1e9}}), canvas(97, 61)});
  cases.push_back({"one column", polygon({{-0.5, 0.5}, {0.25, 30.5}, {0.75, 2}}), canvas(1, 37)});
  cases.push_back({"integer vertices, N 50", lattice_polygon(50, 64, 48, 1, 11), canvas(64, 48)});
  cases.push_back({"half-integer vertices, N 200", lattice_polygon(200, 101, 67, 0.5, 12), canvas(101, 67)});
  cases.push_back({"quarter-integer vertices, N 1024", lattice_polygon(1024, 129, 65, 0.25, 13), canvas(129, 65)});
  return cases;
}

using testing::RungCase;

class PolygonMaskRungTest : public ::testing::TestWithParam<RungCase> {};

TEST_P(PolygonMaskRungTest, MatchesTheReferenceBitForBitOnEveryCheckCase) {
  testing::expect_rung_matches_reference("polygon_mask", GetParam());
}

TEST_P(PolygonMaskRungTest, MatchesTheReferenceBitForBitOnHardPolygons) {
  auto problem = make_problem("polygon_mask");
  const RungEntry* entry = find_rung("polygon_mask", GetParam().rung);
  if (entry == nullptr) GTEST_SKIP() << GetParam().rung << " is not built in this build";
  RunOptions options;
  options.pinned = GetParam().pinned;
  Availability availability = backend_availability(entry->backend, options);
  if (!availability.available) GTEST_SKIP() << availability.reason;
  for (const auto& c : hard_cases()) {
    SCOPED_TRACE(c.name);
    ASSERT_NO_THROW(problem->validate(c.inputs, c.params));
    CheckResult result =
        problem->check(run_once(*entry, c.inputs, c.params, options, *problem), problem->reference(c.inputs, c.params));
    EXPECT_TRUE(result.ok) << result.detail;
  }
}

INSTANTIATE_TEST_SUITE_P(Rungs, PolygonMaskRungTest, ::testing::ValuesIn(testing::rung_cases("polygon_mask")),
                         testing::rung_case_name);

TEST(PolygonMaskTest, TheLadderListsBothGpuLayouts) {
  EXPECT_EQ(make_problem("polygon_mask")->rungs(),
            (std::vector<std::string>{"naive", "serial", "openmp", "opencl", "opencl_per_row", "cuda", "cuda_per_row",
                                      "openmp_target"}));
}

// An independent even-odd test (W. R. Franklin's PNPOLY, with a division):
// the same answer as matplotlib's for every point that is not on an edge.
std::vector<std::uint8_t> brute_force(const Arrays& inputs, int width, int height) {
  auto v = inputs.at("vertices").view<double>();
  const std::size_t n = v.size() / 2;
  std::vector<std::uint8_t> mask(static_cast<std::size_t>(width) * height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      bool inside = false;
      for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
        const double xi = v[2 * i], yi = v[2 * i + 1], xj = v[2 * j], yj = v[2 * j + 1];
        if ((yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) inside = !inside;
      }
      mask[static_cast<std::size_t>(y) * width + x] = inside;
    }
  return mask;
}

std::vector<std::uint8_t> reference_mask(const Arrays& inputs, int width, int height) {
  Arrays out = make_problem("polygon_mask")->reference(inputs, canvas(width, height));
  auto mask = out.at("mask").view<std::uint8_t>();
  EXPECT_EQ(out.at("mask").shape(), (std::vector<std::size_t>{std::size_t(height), std::size_t(width)}));
  return {mask.begin(), mask.end()};
}

TEST(PolygonMaskReferenceTest, SquareCoversExactlyThePixelsInside) {
  // x from 1.5 to 5.5 and y from 1.5 to 4.5: columns 2..5 of rows 2..4.
  Arrays square = polygon({{1.5, 1.5}, {5.5, 1.5}, {5.5, 4.5}, {1.5, 4.5}});
  auto mask = reference_mask(square, 8, 6);
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 8; ++x)
      EXPECT_EQ(mask[y * 8 + x], x >= 2 && x <= 5 && y >= 2 && y <= 4) << "pixel (" << y << ", " << x << ")";
  EXPECT_EQ(mask, brute_force(square, 8, 6));
}

TEST(PolygonMaskReferenceTest, TriangleMatchesTheIndependentTest) {
  Arrays triangle = polygon({{0.5, 0.5}, {6.25, 0.5}, {0.5, 6.75}});
  auto mask = reference_mask(triangle, 8, 8);
  EXPECT_EQ(mask[1 * 8 + 1], 1);
  EXPECT_EQ(mask[5 * 8 + 1], 1);
  EXPECT_EQ(mask[6 * 8 + 6], 0);
  EXPECT_EQ(mask[0 * 8 + 3], 0);
  EXPECT_EQ(mask, brute_force(triangle, 8, 8));
}

TEST(PolygonMaskReferenceTest, BowTieHasTwoLobesAndAGap) {
  // Self-intersecting: two triangles meeting at (4.5, 3.5).
  Arrays bow_tie = polygon({{0.5, 0.5}, {8.5, 6.5}, {8.5, 0.5}, {0.5, 6.5}});
  auto mask = reference_mask(bow_tie, 10, 8);
  EXPECT_EQ(mask[3 * 10 + 2], 1);  // left lobe
  EXPECT_EQ(mask[3 * 10 + 4], 0);  // between the lobes
  EXPECT_EQ(mask[3 * 10 + 6], 1);  // right lobe
  EXPECT_EQ(mask[1 * 10 + 4], 0);  // above the crossing
  EXPECT_EQ(mask, brute_force(bow_tie, 10, 8));
}

TEST(PolygonMaskReferenceTest, PentagramCentreIsOutsideByTheEvenOddRule) {
  // A five-pointed star drawn in one stroke: its centre is wound twice, so
  // even-odd leaves it out (non-zero winding would fill it).
  std::vector<std::pair<double, double>> points;
  for (int k = 0; k < 5; ++k) {
    const double angle = k * 4 * std::numbers::pi / 5;
    points.push_back({10.3 + 9 * std::sin(angle), 10.2 - 9 * std::cos(angle)});  // off the pixel grid
  }
  Arrays star = polygon(points);
  auto mask = reference_mask(star, 21, 21);
  EXPECT_EQ(mask[10 * 21 + 10], 0);  // the centre
  EXPECT_EQ(mask[4 * 21 + 10], 1);   // inside the top point
  EXPECT_EQ(mask[0 * 21 + 0], 0);
  EXPECT_EQ(mask, brute_force(star, 21, 21));
}

TEST(PolygonMaskReferenceTest, GeneratedPolygonsMatchTheIndependentTest) {
  auto problem = make_problem("polygon_mask");
  for (int seed = 1; seed <= 5; ++seed) {
    Params params = problem->resolve("tiny", {});
    Arrays inputs = problem->generate(params, seed);
    EXPECT_EQ(reference_mask(inputs, 97, 61), brute_force(inputs, 97, 61)) << "seed " << seed;
  }
}

TEST(PolygonMaskTest, GeneratedVerticesAreInTheCanvasAndNeverIntegers) {
  auto problem = make_problem("polygon_mask");
  for (const auto& [width, height, n] : {std::tuple{97, 61, 24}, std::tuple{1, 1, 3}, std::tuple{8192, 5, 4096}}) {
    Params params = problem->resolve(
        "tiny",
        Params(std::map<std::string, std::string>{
            {"width", std::to_string(width)}, {"height", std::to_string(height)}, {"vertices", std::to_string(n)}}));
    Arrays inputs = problem->generate(params, 9);
    const Array& vertices = inputs.at("vertices");
    ASSERT_EQ(vertices.dtype(), DType::f64);
    ASSERT_EQ(vertices.shape(), (std::vector<std::size_t>{std::size_t(n), 2}));
    auto v = vertices.view<double>();
    for (std::size_t i = 0; i < v.size(); ++i) {
      const double side = i % 2 == 0 ? width : height;
      ASSERT_NE(v[i], std::floor(v[i])) << "coordinate " << i << " is an integer";
      ASSERT_GT(v[i], 0);
      ASSERT_LT(v[i], side);
    }
    EXPECT_NO_THROW(problem->validate(inputs, params));
    EXPECT_EQ(checksum(problem->generate(params, 9).at("vertices")), checksum(vertices));
    EXPECT_NE(checksum(problem->generate(params, 10).at("vertices")), checksum(vertices));
  }
}

TEST(PolygonMaskTest, RefusesBadVerticesAndCanvases) {
  auto problem = make_problem("polygon_mask");
  auto refused = [&](const Arrays& inputs, const Params& params, const std::string& fragment) {
    testing::expect_usage_error([&] { problem->validate(inputs, params); }, fragment);
  };
  const Arrays triangle = polygon({{0.5, 0.5}, {6.5, 0.5}, {0.5, 6.5}});
  const Params ok = canvas(8, 8);
  EXPECT_NO_THROW(problem->validate(triangle, ok));
  EXPECT_NO_THROW(problem->validate(triangle, canvas(1, 1)));

  refused(polygon({{0.5, 0.5}, {6.5, 0.5}}), ok, "holds 2 vertices; a polygon needs at least 3");
  refused({{"vertices", Array(DType::f64, {0, 2})}}, ok, "at least 3");
  refused({{"vertices", Array(DType::f32, {3, 2})}}, ok,
          "input vertices is a float32 array of shape (3, 2); polygon_mask takes a float64 array of shape (N, 2)");
  refused({{"vertices", Array(DType::f64, {3, 3})}}, ok, "takes a float64 array of shape (N, 2)");
  refused({{"vertices", Array(DType::f64, {6})}}, ok, "takes a float64 array of shape (N, 2)");
  refused({{"vertices", Array(DType::f64, {4097, 2})}}, ok, "at most 4096 are accepted");
  refused(polygon({{0.5, 0.5}, {NAN, 0.5}, {0.5, 6.5}}), ok, "vertex 1 is (nan, 0.5); vertices must be finite");
  refused(polygon({{0.5, 0.5}, {6.5, 0.5}, {0.5, -INFINITY}}), ok, "vertex 2 is (0.5, -inf); vertices must be finite");
  refused(polygon({{0.5, 0.5}, {6.5, 2e9}, {0.5, 6.5}}), ok, "coordinates must lie within +-1e9");

  refused(triangle, Params(), "needs the canvas size: --param width=W --param height=H");
  refused(triangle, Params(std::map<std::string, std::string>{{"width", "8"}}), "needs the canvas size");
  refused(triangle, canvas(0, 8),
          "parameter width=0 is out of range for polygon_mask (accepted: integers 1 to 1048576)");
  refused(triangle, canvas(8, -3), "parameter height=-3 is out of range");
  refused(triangle, Params(std::map<std::string, std::string>{{"width", "2.5"}, {"height", "8"}}),
          "parameter width=2.5 is out of range");
  refused(triangle, Params(std::map<std::string, std::string>{{"width", "wide"}, {"height", "8"}}),
          "parameter width=wide is not a number");
  refused(triangle, canvas(1048577, 1), "parameter width=1048577 is out of range");
  refused(triangle, canvas(1048576, 1048576), "is 1099511627776 pixels; at most 2^34 (a 16 GiB mask) are accepted");
}

TEST(PolygonMaskTest, WorkIsTheMaskWrittenAndOneEdgeTestPerPixelAndEdge) {
  auto problem = make_problem("polygon_mask");
  Work work = problem->work({{"vertices", Array(DType::f64, {24, 2})}}, canvas(100, 30));
  EXPECT_EQ(work.bytes, 3000 + 16 * 24);
  EXPECT_EQ(work.operations, 3000.0 * 24);
  EXPECT_EQ(work.bytes_in, 16 * 24);
  EXPECT_EQ(work.bytes_out, 3000);
}

TEST(PolygonMaskTest, OnlyNaiveIsPredictedAndItGrowsWithTheEdgeTests) {
  auto problem = make_problem("polygon_mask");
  Params large = problem->resolve("large", Params(std::map<std::string, std::string>{{"vertices", "1024"}}));
  auto naive = problem->predict("naive", large);
  ASSERT_TRUE(naive.has_value());
  EXPECT_GT(naive->seconds, 60);  // 8192² pixels × 1024 edges: past the default time budget
  EXPECT_LT(problem->predict("naive", problem->resolve("workshop", {}))->seconds, 1);
  EXPECT_FALSE(problem->predict("serial", large).has_value());
}

// `ladder solve polygon_mask` as a user runs it: the mask of their own
// vertices at their canvas size; the canvas size is required.
TEST(PolygonMaskSolveTest, SolveWritesTheReferenceMaskAndRequiresTheCanvas) {
  namespace fs = std::filesystem;
  const fs::path directory = fs::temp_directory_path() / ("ladder_polygon_solve_" + std::to_string(::getpid()));
  fs::remove_all(directory);
  fs::create_directories(directory);
  auto ladder = [&](const std::string& arguments, std::string& output) {
    std::string command = "cd '" + directory.string() + "' && '" LADDER_EXECUTABLE "' " + arguments + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    char buffer[4096];
    while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
    int status = pclose(pipe);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  const Arrays star = lattice_polygon(30, 37, 23, 0.5, 5);
  write_npy((directory / "v.npy").string(), star.at("vertices"));

  std::string output;
  EXPECT_EQ(ladder("solve polygon_mask --variant serial --input vertices=v.npy --output m.npy", output), 2);
  EXPECT_NE(output.find("needs the canvas size"), std::string::npos) << output;
  EXPECT_FALSE(fs::exists(directory / "m.npy"));

  output.clear();
  EXPECT_EQ(ladder("solve polygon_mask --variant serial --input vertices=v.npy --param width=37 --param height=23 "
                   "--param vertices=30 --output m.npy",
                   output),
            2);
  EXPECT_NE(output.find("parameter vertices sets the size of generated inputs"), std::string::npos) << output;

  output.clear();
  ASSERT_EQ(ladder("solve polygon_mask --variant serial --input vertices=v.npy --param width=37 --param height=23 "
                   "--output m.npy",
                   output),
            0)
      << output;
  Array mask = read_npy((directory / "m.npy").string());
  Arrays expected = make_problem("polygon_mask")->reference(star, canvas(37, 23));
  EXPECT_TRUE(check_identical({{"mask", mask}}, expected).ok);
  fs::remove_all(directory);
}

// The planted mistake: the naive rung with x and y swapped, each pixel's
// test made at (y, x). Only a square canvas hides it. A test-only rung of
// the planted track, which neither `ladder` nor the rung tests see; the
// check case named for the mistake must fail it.
class PlantedXAndYSwapped final : public polygon_mask::NaivePolygonMask {
 public:
  using NaivePolygonMask::NaivePolygonMask;

 protected:
  void mask_row(std::size_t y) override {
    for (std::size_t x = 0; x < width_; ++x)  // the mistake: (y, x) for (x, y)
      mask_[y * width_ + x] = polygon_mask::point_in_polygon(static_cast<double>(y), static_cast<double>(x), vertices_);
  }
};
LADDER_PLANTED_MISTAKE(polygon_mask, serial_x_and_y_swapped, PlantedXAndYSwapped,
                       "x and y swapped (a canvas wider than tall)");

}  // namespace
}  // namespace ladder
