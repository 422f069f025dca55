// labelling (bench/problems/labelling/README.md): connected components of a binary image,
// exactly scipy.ndimage.label's int32 output. Background is 0; the
// components are numbered 1..n in raster order of their first pixel;
// connectivity 4 (scipy's default structure) or 8 (np.ones((3, 3))).
// Workshop: the radio sky of kappa_sigma segmented at 5 × its clipped std
// (the lesson's clip, segment, label); large: random noise of density 0.5,
// millions of components, the hard case for label propagation on a GPU.
#include <limits>
#include <tuple>

#include "bench/problems/radio_sky.hpp"
#include "ladder/error.hpp"
#include "ladder/random.hpp"
#include "ladder/registry.hpp"

namespace ladder {
namespace {

// The GPU rungs use a pixel's linear index as an int32 label, so an image
// may have at most 2^31 - 1 pixels (then n <= ceil(H·W / 2) fits too).
constexpr double kMaxPixels = std::numeric_limits<std::int32_t>::max();

void refuse_too_many_pixels(double height, double width) {
  if (height * width > kMaxPixels)
    throw UsageError("image " + std::to_string(static_cast<long long>(height)) + " x " +
                     std::to_string(static_cast<long long>(width)) + " has " +
                     std::to_string(static_cast<long long>(height * width)) +
                     " pixels; labelling accepts at most 2^31 - 1 = 2147483647 (the labels are int32)");
}

// A one-pixel-wide path that spirals clockwise from the top-left corner to
// the middle, one background pixel between its turns: a single component
// that visits every part of the image (the deep case for recursion and for
// label propagation).
void draw_spiral(std::span<std::uint8_t> image, long height, long width) {
  auto inside = [&](long y, long x) { return y >= 0 && y < height && x >= 0 && x < width; };
  auto drawn = [&](long y, long x) { return image[static_cast<std::size_t>(y * width + x)] != 0; };
  const long steps[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};  // right, down, left, up
  long y = 0, x = 0;
  int direction = 0, turns = 0;
  image[0] = 1;
  while (turns < 2) {
    const long dy = steps[direction][0], dx = steps[direction][1];
    const long ny = y + dy, nx = x + dx;
    // Step on if the next pixel is free and the one after it is not drawn (the gap).
    if (inside(ny, nx) && !drawn(ny, nx) && (!inside(ny + dy, nx + dx) || !drawn(ny + dy, nx + dx))) {
      y = ny, x = nx;
      image[static_cast<std::size_t>(y * width + x)] = 1;
      turns = 0;
    } else {
      direction = (direction + 1) % 4;
      ++turns;
    }
  }
}

class Labelling final : public Problem {
 public:
  std::string name() const override { return "labelling"; }
  std::string summary() const override {
    return "connected components of a binary image, numbered in raster order (exact, as scipy.ndimage.label)";
  }

  std::vector<std::string> rungs() const override { return {"naive", "serial", "openmp", "opencl", "cuda", "cuda_rows"}; }

  std::vector<ParamSpec> params() const override {
    return {{.name = "connectivity",
             .description = "4: edge neighbours (scipy's default); 8: edge and corner neighbours",
             .choices = {"4", "8"}},
            {"height", "image height in pixels", 1, kMaxPixels, true, true},
            {"width", "image width in pixels", 1, kMaxPixels, true, true},
            {.name = "image",
             .description = "sky: the radio sky segmented at 5 clipped stds; noise: random pixels of the given "
                            "density; spiral: one path snaking through the image; checkerboard",
             .generator_only = true,
             .choices = {"sky", "noise", "spiral", "checkerboard"}},
            {"density", "foreground fraction of the noise image", 0, 1, false, true}};
  }
  std::vector<SizePreset> sizes() const override {
    auto preset = [](const char* name, const char* height, const char* width, const char* image) {
      return SizePreset{
          name, {{"height", height}, {"width", width}, {"image", image}, {"density", "0.5"}, {"connectivity", "4"}}};
    };
    return {preset("tiny", "61", "67", "noise"), preset("workshop", "2048", "2048", "sky"),
            preset("large", "8192", "8192", "noise")};
  }
  std::vector<InputSpec> inputs() const override {
    return {{"image", "2-D uint8 array, non-zero = foreground (uint16, int32, uint32, int64 are accepted too)"}};
  }
  std::vector<CheckCase> check_cases() const override {
    // Densities 0 and 1, the percolation thresholds (about 0.59 for 4 and
    // 0.41 for 8: a few components span the image), a single pixel, row
    // and column, sizes that are no multiple of any tile or work-group
    // size, the spiral, the checkerboard and a small sky; each for 4 and 8.
    // height, width, image, density, and the mistake the case catches
    using Case = std::tuple<const char*, const char*, const char*, const char*, const char*>;
    const Case shapes[] = {
        {"61", "67", "noise", "0.5", "a partial last tile or work-group"},
        {"61", "67", "noise", "0", "an empty image: no labels"},
        {"61", "67", "noise", "1", "a full image: one component across every seam"},
        {"1", "1", "noise", "1", "a single pixel"},
        {"1", "1", "noise", "0", "a single background pixel"},
        {"1", "301", "noise", "0.5", "a single row"},
        {"301", "1", "noise", "0.5", "a single column"},
        {"2", "97", "noise", "0.7", "two rows: the first seam"},
        {"97", "33", "noise", "0.3", "sparse components, a taller image than wide"},
        {"130", "257", "noise", "0.41", "the percolation threshold of 8-connectivity"},
        {"130", "257", "noise", "0.59", "the seams between strips: components across them, not joined"},
        {"257", "130", "noise", "0.8", "x and y swapped (a taller image than wide)"},
        {"67", "61", "spiral", "0.5", "a component that winds back across strips: chains of merges"},
        {"1", "40", "spiral", "0.5", "a spiral one row high"},
        {"33", "65", "checkerboard", "0.5", "diagonal neighbours: 4- and 8-connectivity told apart"},
        {"200", "300", "sky", "0.5", "labels in raster order of each component's first pixel"}};
    std::vector<CheckCase> cases;
    for (const char* connectivity : {"4", "8"})
      for (auto [height, width, image, density, catches] : shapes)
        cases.push_back({Params(std::map<std::string, std::string>{{"height", height},
                                                                   {"width", width},
                                                                   {"image", image},
                                                                   {"density", density},
                                                                   {"connectivity", connectivity}}),
                         std::string(catches) + " (" + connectivity + "-connectivity)"});
    return cases;
  }

  // Under Oclgrind (check --race): a single pixel, a single row and a
  // single column, several 32-wide tiles joined across their borders with
  // partial tiles at both edges, the spiral (one component through every
  // tile) and the checkerboard (8-connectivity's diagonals); each for 4 and 8.
  std::vector<Params> simulator_cases() const override {
    using Case = std::tuple<const char*, const char*, const char*, const char*>;  // height, width, image, density
    const Case shapes[] = {{"1", "1", "noise", "1"},      {"1", "70", "noise", "0.5"},
                           {"70", "1", "noise", "0.5"},   {"45", "67", "noise", "0.59"},
                           {"37", "35", "spiral", "0.5"}, {"33", "40", "checkerboard", "0.5"}};
    std::vector<Params> cases;
    for (const char* connectivity : {"4", "8"})
      for (auto [height, width, image, density] : shapes)
        cases.push_back(Params(std::map<std::string, std::string>{{"height", height},
                                                                  {"width", width},
                                                                  {"image", image},
                                                                  {"density", density},
                                                                  {"connectivity", connectivity}}));
    return cases;
  }

  Arrays generate(const Params& params, std::uint64_t seed) const override {
    const auto height = static_cast<std::size_t>(params.integer("height"));
    const auto width = static_cast<std::size_t>(params.integer("width"));
    refuse_too_many_pixels(double(height), double(width));
    const std::string& kind = params.text("image");
    if (kind == "sky") return {{"image", segment_sky(generate_radio_sky(height, width, seed))}};

    Arrays inputs{{"image", Array(DType::u8, {height, width})}};
    auto image = inputs["image"].view<std::uint8_t>();
    const long rows = static_cast<long>(height), columns = static_cast<long>(width);
    if (kind == "noise") {
      const float density = static_cast<float>(params.number("density"));
      const CounterRng rng(seed, 0);
#pragma omp parallel for schedule(static)
      for (long y = 0; y < rows; ++y)
        for (long x = 0; x < columns; ++x) {
          const auto i = static_cast<std::size_t>(y * columns + x);
          image[i] = rng.uniform_float32(i) < density ? 1 : 0;  // density 1: always (uniform < 1)
        }
    } else if (kind == "checkerboard") {
      for (long y = 0; y < rows; ++y)
        for (long x = 0; x < columns; ++x) image[static_cast<std::size_t>(y * columns + x)] = (x + y) % 2 == 0;
    } else {
      draw_spiral(image, rows, columns);
    }
    return inputs;
  }

  // The pixel count is checked on the shape alone, before any pixel is read.
  void validate(const Arrays& inputs, const Params&) const override {
    const Array& image = inputs.at("image");
    const auto& shape = image.shape();
    if (image.dtype() == DType::f32 || image.dtype() == DType::f64)
      throw UsageError("input image is a " + image.describe() +
                       "; labelling takes a 2-D uint8 or bool image, non-zero = foreground (or uint16, int32, uint32, "
                       "int64)");
    if (shape.size() != 2)
      throw UsageError("input image is a " + image.describe() + "; labelling takes a 2-D image (H, W)");
    if (shape[0] == 0 || shape[1] == 0)
      throw UsageError("input image is a " + image.describe() + "; labelling needs at least one pixel");
    refuse_too_many_pixels(double(shape[0]), double(shape[1]));
  }

  // Any integer dtype becomes the uint8 the rungs read: 1 where non-zero.
  void normalise(Arrays& inputs) const override {
    Array& image = inputs.at("image");
    if (image.dtype() == DType::u8) return;
    Array binary(DType::u8, image.shape());
    auto out = binary.view<std::uint8_t>();
    auto copy = [&](auto values) {
      for (std::size_t i = 0; i < values.size(); ++i) out[i] = values[i] != 0;
    };
    switch (image.dtype()) {
      case DType::u16:
        copy(image.view<std::uint16_t>());
        break;
      case DType::i32:
        copy(image.view<std::int32_t>());
        break;
      case DType::u32:
        copy(image.view<std::uint32_t>());
        break;
      case DType::i64:
        copy(image.view<std::int64_t>());
        break;
      default:
        throw std::logic_error("labelling: normalise after validate");
    }
    image = std::move(binary);
  }

  Arrays allocate_outputs(const Arrays& inputs, const Params&) const override {
    return {{"labels", Array(DType::i32, inputs.at("image").shape())}};
  }

  ArrayShapes input_shapes(const Params& params) const override {
    return {{"image", {DType::u8, {static_cast<std::size_t>(params.integer("height")),
                                   static_cast<std::size_t>(params.integer("width"))}}}};
  }
  // The image (other integer dtypes also as their uint8 copy), the int32
  // labels twice (the reference's and the rung's), and the largest
  // scratch: the flood fills' queue or stack of 8-byte indices (the
  // reference's and naive's), up to every pixel, which a std::vector holds
  // in up to three times that while it grows: 24 bytes a pixel. (The sky
  // passes through float32 copies first, 9 bytes a pixel, less than that.)
  double host_bytes(const ArrayShapes& inputs, const Params&) const override {
    const ArrayShape& image = inputs.at("image");
    const double pixels = image.size();
    const double conversion = image.dtype == DType::u8 ? 0 : pixels;
    return image.bytes() + conversion + 2 * 4 * pixels + 24 * pixels;
  }

  // Breadth-first flood fill from each unlabelled foreground pixel in
  // raster order: a different walk from the naive rung's depth-first one,
  // the same numbering (a component is numbered when its first pixel is met).
  Arrays reference(const Arrays& inputs, const Params& params) const override {
    Arrays outputs = allocate_outputs(inputs, params);
    Arrays binary = {{"image", inputs.at("image")}};
    normalise(binary);  // the reference reads any accepted dtype
    const auto image = binary.at("image").view<std::uint8_t>();
    const long height = static_cast<long>(inputs.at("image").shape()[0]);
    const long width = static_cast<long>(inputs.at("image").shape()[1]);
    const bool eight = params.has("connectivity") && params.integer("connectivity") == 8;
    auto foreground = [&](long i) { return image[static_cast<std::size_t>(i)] != 0; };
    auto labels = outputs["labels"].view<std::int32_t>();
    std::vector<long> queue;
    std::int32_t n = 0;
    for (long start = 0; start < height * width; ++start) {
      if (!foreground(start) || labels[static_cast<std::size_t>(start)] != 0) continue;
      labels[static_cast<std::size_t>(start)] = ++n;
      queue.assign(1, start);
      for (std::size_t head = 0; head < queue.size(); ++head) {
        const long y = queue[head] / width, x = queue[head] % width;
        for (long dy = -1; dy <= 1; ++dy)
          for (long dx = -1; dx <= 1; ++dx) {
            if ((dy == 0 && dx == 0) || (!eight && dy != 0 && dx != 0)) continue;
            const long ny = y + dy, nx = x + dx;
            if (ny < 0 || ny >= height || nx < 0 || nx >= width) continue;
            const long j = ny * width + nx;
            if (foreground(j) && labels[static_cast<std::size_t>(j)] == 0) {
              labels[static_cast<std::size_t>(j)] = n;
              queue.push_back(j);
            }
          }
      }
    }
    return outputs;
  }

  CheckResult check(const Arrays& got, const Arrays& expected) const override { return check_identical(got, expected); }

  // Minimum traffic: the image read once, the labels written once. One
  // "operation" per pixel, so that the rate reads as pixels per second.
  Work work(const Arrays& inputs, const Params&) const override {
    const double pixels = static_cast<double>(inputs.at("image").size());
    return {.bytes = 5 * pixels, .operations = pixels, .bytes_in = pixels, .bytes_out = 4 * pixels};
  }
};

LADDER_REGISTER_PROBLEM(Labelling);

}  // namespace
}  // namespace ladder
