// polygon_mask (bench/problems/polygon_mask/README.md): the H×W uint8 mask of the pixels inside a
// polygon by the even-odd rule, pixel (y, x) tested at the point (x, y).
// From the High Performance Python course; the reference is matplotlib's
// Path(vertices).contains_points, whose crossing test we copy term for term.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>

#include "ladder/error.hpp"
#include "ladder/random.hpp"
#include "ladder/registry.hpp"

namespace ladder {
namespace {

constexpr double kMaxSide = 1 << 20;             // pixels per side of the canvas
constexpr double kMaxMaskBytes = 17179869184.0;  // 2^34: a 16 GiB mask is the most we accept
constexpr std::size_t kMaxVertices = 4096;       // the GPU rungs keep them in 64 KiB of constant memory
constexpr double kMaxCoordinate = 1e9;           // keeps the crossing test's products far from overflow

// Does the ray from (tx, ty) towards +x cross the edge (x0, y0) -> (x1, y1)?
// Matplotlib's test (src/_path.h, point_in_path_impl), operation for
// operation: every rung evaluates this same expression in float64, so a
// point on or next to an edge gets the same answer everywhere.
bool ray_crosses_edge(double x0, double y0, double x1, double y1, double tx, double ty) {
  const bool above0 = y0 >= ty;
  const bool above1 = y1 >= ty;
  return above0 != above1 && (((y1 - ty) * (x0 - x1) >= (x1 - tx) * (y0 - y1)) == above1);
}

std::string vertex_text(std::span<const double> v, std::size_t i) {
  std::ostringstream out;
  out.precision(17);
  out << "vertex " << i << " is (" << v[2 * i] << ", " << v[2 * i + 1] << ")";
  return out.str();
}

class PolygonMask final : public Problem {
 public:
  std::string name() const override { return "polygon_mask"; }
  std::string summary() const override {
    return "uint8 mask of the pixels inside a polygon by the even-odd rule (exact, as matplotlib)";
  }
  // The GPU rungs: per pixel is `opencl` / `cuda` until the H100 says
  // otherwise; per row is kept as the extra rung (README.md). Then OpenMP
  // target offload, named so that a build without it says why.
  std::vector<std::string> rungs() const override {
    return {"naive", "serial", "openmp", "opencl", "opencl_per_row", "cuda", "cuda_per_row", "openmp_target"};
  }

  std::vector<ParamSpec> params() const override {
    return {{"width", "canvas width in pixels", 1, kMaxSide, true, false},
            {"height", "canvas height in pixels", 1, kMaxSide, true, false},
            {"vertices", "vertices of the generated polygon", 3, double{kMaxVertices}, true, true}};
  }
  std::vector<SizePreset> sizes() const override {
    return {{"tiny", {{"width", "97"}, {"height", "61"}, {"vertices", "24"}}},
            {"workshop", {{"width", "1024"}, {"height", "1024"}, {"vertices", "24"}}},
            {"large", {{"width", "8192"}, {"height", "8192"}, {"vertices", "24"}}}};
  }
  std::vector<InputSpec> inputs() const override {
    return {{"vertices", "float64 array of shape (N, 2), columns x and y, 3 <= N <= 4096"}};
  }
  std::vector<CheckCase> check_cases() const override {
    // The smallest polygon and canvas, thin canvases, sizes that are no
    // multiple of any block or work-group size, and many vertices; every
    // canvas but 1 x 1 is not square, so x and y swapped shows.
    std::vector<CheckCase> cases;
    for (auto [width, height, vertices, catches] :
         {std::tuple{"97", "61", "3", "x and y swapped (a canvas wider than tall)"},
          std::tuple{"1", "1", "3", "a single pixel"},
          std::tuple{"1", "1", "24", "a single pixel, many edges"},
          std::tuple{"1", "37", "24", "a single column"},
          std::tuple{"33", "1", "24", "a single row"},
          std::tuple{"97", "61", "4", "a partial last block or work-group"},
          std::tuple{"97", "61", "24", "a concave polygon: the even-odd rule"},
          std::tuple{"257", "131", "24", "one past a multiple of every tile width"},
          std::tuple{"257", "131", "1024", "many vertices: the last edge, back to the first vertex"},
          std::tuple{"300", "2", "64", "two rows: the scanlines' bounds"}})
      cases.push_back({Params(std::map<std::string, std::string>{
                           {"width", width}, {"height", height}, {"vertices", vertices}}),
                       catches});
    return cases;
  }

  // Under Oclgrind (check --race): one pixel, a single row and a single
  // column, rows wider than one work-group's pixels, and sizes no group divides.
  std::vector<Params> simulator_cases() const override {
    std::vector<Params> cases;
    for (auto [width, height, vertices] :
         {std::tuple{"1", "1", "3"}, std::tuple{"33", "1", "24"}, std::tuple{"1", "37", "24"},
          std::tuple{"97", "61", "4"}, std::tuple{"1100", "3", "24"}})
      cases.push_back(
          Params(std::map<std::string, std::string>{{"width", width}, {"height", height}, {"vertices", vertices}}));
    return cases;
  }

  // N vertices uniform in [0, W) x [0, H), in random order (so the polygon
  // may self-intersect, as in the course), on the grid (j + 1/2) / 4096:
  // never an integer, so no vertex lies on a pixel's row or column.
  Arrays generate(const Params& params, std::uint64_t seed) const override {
    const auto n = static_cast<std::size_t>(params.integer("vertices"));
    const double side[2] = {static_cast<double>(params.integer("width")),
                            static_cast<double>(params.integer("height"))};
    Arrays inputs{{"vertices", Array(DType::f64, {n, 2})}};
    auto v = inputs["vertices"].view<double>();
    const CounterRng rng(seed, 0);
    for (std::size_t i = 0; i < v.size(); ++i) {
      const double cells = side[i % 2] * 4096;
      const double j = std::min(std::floor(rng.uniform_float64(i) * cells), cells - 1);
      v[i] = (j + 0.5) / 4096;  // exact in float64
    }
    return inputs;
  }

  void validate(const Arrays& inputs, const Params& params) const override {
    const Array& vertices = inputs.at("vertices");
    const auto& shape = vertices.shape();
    if (vertices.dtype() != DType::f64 || shape.size() != 2 || shape[1] != 2)
      throw UsageError("input vertices is a " + vertices.describe() +
                       "; polygon_mask takes a float64 array of shape (N, 2), columns x and y");
    if (shape[0] < 3)
      throw UsageError("input vertices holds " + std::to_string(shape[0]) + " vertices; a polygon needs at least 3");
    if (shape[0] > kMaxVertices)
      throw UsageError("input vertices holds " + std::to_string(shape[0]) + " vertices; at most " +
                       std::to_string(kMaxVertices) + " are accepted (the GPU rungs keep them in constant memory)");
    auto v = vertices.view<double>();
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!std::isfinite(v[i]))
        throw UsageError("input vertices: " + vertex_text(v, i / 2) + "; vertices must be finite (no NaN or inf)");
      if (std::abs(v[i]) > kMaxCoordinate)
        throw UsageError("input vertices: " + vertex_text(v, i / 2) +
                         "; coordinates must lie within +-1e9 (the canvas is at most 1048576 pixels a side)");
    }
    if (!params.has("width") || !params.has("height"))
      throw UsageError("polygon_mask needs the canvas size: --param width=W --param height=H (pixels, 1 to 1048576)");
    double pixels = 1;
    for (const char* side : {"width", "height"}) {
      const double value = params.number(side);
      if (value != std::floor(value) || value < 1 || value > kMaxSide)
        throw UsageError(std::string("parameter ") + side + "=" + params.text(side) +
                         " is out of range for polygon_mask (accepted: integers 1 to 1048576)");
      pixels *= value;
    }
    if (pixels > kMaxMaskBytes)
      throw UsageError("canvas " + params.text("width") + " x " + params.text("height") + " is " +
                       std::to_string(static_cast<long long>(pixels)) +
                       " pixels; at most 2^34 (a 16 GiB mask) are accepted");
  }

  Arrays allocate_outputs(const Arrays&, const Params& params) const override {
    const auto width = static_cast<std::size_t>(params.integer("width"));
    const auto height = static_cast<std::size_t>(params.integer("height"));
    return {{"mask", Array(DType::u8, {height, width})}};
  }

  ArrayShapes input_shapes(const Params& params) const override {
    return {{"vertices", {DType::f64, {static_cast<std::size_t>(params.integer("vertices")), 2}}}};
  }
  // The vertices (and an OpenCL copy), and the H·W mask three times: the
  // reference's, the rung's and an OpenCL rung's buffer. The scanline
  // rungs' crossing lists hold one row.
  double host_bytes(const ArrayShapes& inputs, const Params& params) const override {
    const double pixels = params.number_or("width", 0) * params.number_or("height", 0);
    return 2 * total_bytes(inputs) + 3 * pixels;
  }

  // Every pixel against every edge, as matplotlib does (rows in parallel
  // only to keep `large` quick; the arithmetic is the same).
  Arrays reference(const Arrays& inputs, const Params& params) const override {
    Arrays outputs = allocate_outputs(inputs, params);
    auto v = inputs.at("vertices").view<double>();
    auto mask = outputs["mask"].view<std::uint8_t>();
    const long height = static_cast<long>(outputs["mask"].shape()[0]);
    const std::size_t width = outputs["mask"].shape()[1];
    const std::size_t n = v.size() / 2;
#pragma omp parallel for schedule(static)
    for (long y = 0; y < height; ++y) {
      for (std::size_t x = 0; x < width; ++x) {
        bool inside = false;
        for (std::size_t i = 0; i < n; ++i) {
          const std::size_t j = (i + 1) % n;  // edge i runs from vertex i to vertex i + 1, closing back to 0
          if (ray_crosses_edge(v[2 * i], v[2 * i + 1], v[2 * j], v[2 * j + 1], static_cast<double>(x),
                               static_cast<double>(y)))
            inside = !inside;
        }
        mask[static_cast<std::size_t>(y) * width + x] = inside;
      }
    }
    return outputs;
  }

  CheckResult check(const Arrays& got, const Arrays& expected) const override { return check_identical(got, expected); }

  // Naive does H·W·N edge tests at about 2 ns each on one core (2.2 ns
  // measured on a 2-core AMD EPYC); `large` with many vertices would take
  // minutes, and the harness skips it with this reason.
  std::optional<Prediction> predict(const std::string& rung, const Params& params) const override {
    const double tests = static_cast<double>(params.integer("width")) * static_cast<double>(params.integer("height")) *
                         static_cast<double>(params.integer("vertices"));
    if (rung == "naive") return Prediction{tests * 2e-9, "H·W·N edge tests, about 2 ns each"};
    // Measured on the development machine kind: 1.78 s and 1.30 s at 1024² and N = 24.
    if (rung == "python_loops") return Prediction{tests * 7e-8, "H·W·N edge tests in pure Python, about 70 ns each"};
    if (rung == "python_cython_tuples")
      return Prediction{tests * 5.2e-8, "H·W·N edge tests on Python objects, about 52 ns each"};
    return std::nullopt;
  }

  // Minimum bytes: the mask written once and the vertices read once.
  // Operations: one edge test per pixel and edge (H·W·N), the naive count;
  // the scanline rungs do fewer, so their "operations/s" is an effective rate.
  Work work(const Arrays& inputs, const Params& params) const override {
    const double pixels = static_cast<double>(params.integer("width")) * static_cast<double>(params.integer("height"));
    const double n = static_cast<double>(inputs.at("vertices").shape()[0]);
    return {.bytes = pixels + 16 * n, .operations = pixels * n, .bytes_in = 16 * n, .bytes_out = pixels};
  }
};

LADDER_REGISTER_PROBLEM(PolygonMask);

}  // namespace
}  // namespace ladder
