// convolution (bench/problems/convolution/README.md): the full 2-D convolution of a float32
// image with a float32 kernel, scipy.signal.convolve2d(image, kernel) in
// mode 'full': zero outside the image, the kernel flipped. The CuPy episode
// of the GPU lesson, and the cuFFT pattern of the NumbaPro slides.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "ladder/error.hpp"
#include "ladder/number_text.hpp"
#include "ladder/random.hpp"
#include "ladder/registry.hpp"

namespace ladder {
namespace {

constexpr double kTolerance = 1e-5;  // relative L2 error against the float64 reference
// The rungs index the output with 32-bit ints.
constexpr std::size_t kMaxOutputPixels = std::numeric_limits<std::int32_t>::max();
// The lesson's delta grid: a 1 at every (8 + 16 i, 8 + 16 j).
constexpr std::size_t kDeltaFirst = 8;
constexpr std::size_t kDeltaSpacing = 16;

// numpy.linspace(-2, 2, n)[i], the same doubles (a single point is -2).
double linspace(std::size_t i, std::size_t n) {
  if (n == 1) return -2.0;
  if (i == n - 1) return 2.0;
  return static_cast<double>(i) * (4.0 / static_cast<double>(n - 1)) - 2.0;
}

std::string shape_text(std::size_t rows, std::size_t columns) {
  return std::to_string(rows) + "×" + std::to_string(columns);
}

class Convolution final : public Problem {
 public:
  std::string name() const override { return "convolution"; }
  std::string summary() const override {
    return "full 2-D convolution of a float32 image with a float32 kernel (scipy.signal.convolve2d, relative L2 "
           "error <= 1e-5)";
  }
  // The cuFFT rung is the extra variant: O(N log N), whatever the kernel size.
  std::vector<std::string> rungs() const override {
    return {"naive", "serial", "openmp", "opencl", "cuda_tiles", "cuda", "cuda_unrolled", "cuda_separable", "cuda_fft", "openmp_target"};
  }

  // The mpi rungs split the image into bands of rows: weak scaling grows its height.
  std::optional<std::string> weak_scaling_parameter(const Params&) const override { return "height"; }

  std::vector<ParamSpec> params() const override {
    return {{"height", "image rows", 1, 32768, true, true},
            {"width", "image columns", 1, 32768, true, true},
            {"kernel_size", "rows of the generated kernel, and its columns unless kernel_width is given", 1, 255, true,
             true},
            {"kernel_width", "columns of the generated kernel (default: kernel_size)", 1, 255, true, true},
            {.name = "image",
             .description = "deltas: zeros with a 1 at every (8 + 16i, 8 + 16j), as in the lesson; noise: uniform in "
                            "[0, 1)",
             .generator_only = true,
             .choices = {"deltas", "noise"}},
            {.name = "kernel_values",
             .description = "gaussian (default): the lesson's exp(-(x^2 + y^2)/2) on linspace(-2, 2); random: "
                            "uniform in [-1, 1), asymmetric, so that a rung which forgets to flip the kernel fails",
             .generator_only = true,
             .choices = {"gaussian", "random"}}};
  }
  // kernel_width and kernel_values are left out of the presets (their
  // defaults apply), so that `--sweep kernel_size=...` sweeps the lesson's
  // square Gaussian. workshop is the lesson's deltas; large is noise, whose
  // every output is a sum of K² nonzero products (on deltas 99 % of them
  // are zero, which a check of the error would not see through).
  std::vector<SizePreset> sizes() const override {
    return {{"tiny", {{"height", "61"}, {"width", "67"}, {"kernel_size", "5"}, {"image", "noise"}}},
            {"workshop", {{"height", "2048"}, {"width", "2048"}, {"kernel_size", "15"}, {"image", "deltas"}}},
            {"large", {{"height", "8192"}, {"width", "8192"}, {"kernel_size", "15"}, {"image", "noise"}}}};
  }
  std::vector<InputSpec> inputs() const override {
    return {{"image", "2-D float32 array (H×W), finite values"},
            {"kernel", "2-D float32 array (K×L, any size: even, or larger than the image), finite values"}};
  }

  std::vector<CheckCase> check_cases() const override {
    // The smallest input, kernels larger than the image, non-square images
    // and kernels, an even kernel, sizes that are no multiple of any tile
    // (16, 32, 64), the sweep's largest kernel, a kernel beyond the cuda
    // rung's constant memory, both images, and random (asymmetric) kernels:
    // the Gaussian is symmetric, so only those catch a kernel not flipped.
    auto make = [](const char* height, const char* width, const char* rows, const char* columns, const char* image,
                   const char* values, const char* catches) {
      Params params(std::map<std::string, std::string>{
          {"height", height}, {"width", width}, {"kernel_size", rows}, {"image", image}, {"kernel_values", values}});
      if (columns != nullptr) params.set("kernel_width", columns);
      return CheckCase{params, catches};
    };
    return {make("1", "1", "1", nullptr, "noise", "gaussian", "a 1 x 1 image and kernel"),
            make("1", "1", "1", nullptr, "deltas", "gaussian", "a single delta"),
            make("5", "7", "15", nullptr, "noise", "random", "a kernel larger than the image"),
            make("9", "9", "15", nullptr, "deltas", "gaussian", "the full output's border, k = 15 on a 9 x 9 image"),
            make("1", "37", "3", "1", "noise", "random", "a single row, a 3 x 1 kernel"),
            make("33", "1", "2", "4", "noise", "random", "a non-square kernel: K and L swapped"),
            make("40", "50", "4", nullptr, "noise", "gaussian", "an even kernel: its centre off by one"),
            make("97", "61", "15", nullptr, "noise", "gaussian", "tile halos at k = 15 on a size no tile divides"),
            make("97", "61", "15", nullptr, "deltas", "random", "a kernel not flipped (a correlation)"),
            make("130", "67", "7", nullptr, "noise", "random", "x and y swapped (an image taller than wide)"),
            make("130", "67", "7", nullptr, "deltas", "gaussian", "the border at k >= 5: the full output's edges"),
            make("70", "90", "63", nullptr, "noise", "random", "the sweep's largest kernel: halos wider than a tile"),
            make("20", "30", "67", "65", "noise", "random", "a kernel beyond the cuda rung's constant memory")};
  }

  // Under Oclgrind (check --race): the smallest input, a kernel larger
  // than the image, an even kernel, non-square kernels on a single row and
  // column, and several 16 × 16 tiles with partial ones on both edges.
  std::vector<Params> simulator_cases() const override {
    auto make = [](const char* height, const char* width, const char* rows, const char* columns, const char* image,
                   const char* values) {
      Params params(std::map<std::string, std::string>{
          {"height", height}, {"width", width}, {"kernel_size", rows}, {"image", image}, {"kernel_values", values}});
      if (columns != nullptr) params.set("kernel_width", columns);
      return params;
    };
    return {make("1", "1", "1", nullptr, "noise", "gaussian"),   make("5", "7", "15", nullptr, "noise", "random"),
            make("1", "37", "3", "1", "noise", "random"),        make("33", "1", "2", "4", "noise", "random"),
            make("20", "18", "4", nullptr, "noise", "gaussian"), make("35", "40", "7", nullptr, "deltas", "random")};
  }

  Arrays generate(const Params& params, std::uint64_t seed) const override {
    const auto height = static_cast<std::size_t>(params.integer("height"));
    const auto width = static_cast<std::size_t>(params.integer("width"));
    const auto rows = static_cast<std::size_t>(params.integer("kernel_size"));
    const auto columns = params.has("kernel_width") ? static_cast<std::size_t>(params.integer("kernel_width")) : rows;
    Arrays inputs{{"image", Array(DType::f32, {height, width})}, {"kernel", Array(DType::f32, {rows, columns})}};

    auto image = inputs["image"].view<float>();
    if (params.text("image") == "deltas") {
      for (std::size_t y = kDeltaFirst; y < height; y += kDeltaSpacing)
        for (std::size_t x = kDeltaFirst; x < width; x += kDeltaSpacing) image[y * width + x] = 1.0f;
    } else {
      const CounterRng rng(seed, 0);
      const long count = static_cast<long>(image.size());
#pragma omp parallel for schedule(static)
      for (long i = 0; i < count; ++i) image[i] = rng.uniform_float32(i);
    }

    auto kernel = inputs["kernel"].view<float>();
    if (params.has("kernel_values") && params.text("kernel_values") == "random") {
      const CounterRng rng(seed, 1);
      for (std::size_t i = 0; i < kernel.size(); ++i) kernel[i] = 2.0f * rng.uniform_float32(i) - 1.0f;
      return inputs;
    }
    // The lesson's Gaussian, computed in double and stored as float32.
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < columns; ++j) {
        const double y = linspace(i, rows), x = linspace(j, columns);
        kernel[i * columns + j] = static_cast<float>(std::exp(-(x * x + y * y) / 2));
      }
    return inputs;
  }

  void validate(const Arrays& inputs, const Params&) const override {
    for (const char* name : {"image", "kernel"}) {
      const Array& array = inputs.at(name);
      if (array.dtype() != DType::f32 || array.shape().size() != 2)
        throw UsageError(std::string("input ") + name + " is a " + array.describe() +
                         "; convolution takes a 2-D float32 array (rows × columns)");
      if (array.size() == 0)
        throw UsageError(std::string("input ") + name + " is a " + array.describe() +
                         ", which is empty; convolution needs at least one row and one column");
      const auto values = array.view<float>();
      const auto bad = std::find_if(values.begin(), values.end(), [](float v) { return !std::isfinite(v); });
      if (bad != values.end()) {
        const auto index = static_cast<std::size_t>(bad - values.begin());
        const std::size_t columns = array.shape()[1];
        throw UsageError(std::string("input ") + name + " holds " + number_text(*bad, kFloatDigits) + " at (row " +
                         std::to_string(index / columns) + ", column " + std::to_string(index % columns) +
                         "); convolution takes finite values only");
      }
    }
    const auto [out_rows, out_columns] = output_shape(inputs);
    if (out_rows * out_columns > kMaxOutputPixels)
      throw UsageError("the output would be " + shape_text(out_rows, out_columns) +
                       " pixels; convolution accepts at most 2^31 - 1 output pixels");
  }

  Arrays allocate_outputs(const Arrays& inputs, const Params&) const override {
    const auto [rows, columns] = output_shape(inputs);
    return {{"output", Array(DType::f32, {rows, columns})}};
  }

  ArrayShapes input_shapes(const Params& params) const override {
    const auto rows = static_cast<std::size_t>(params.integer("kernel_size"));
    return {{"image", {DType::f32, {static_cast<std::size_t>(params.integer("height")),
                                    static_cast<std::size_t>(params.integer("width"))}}},
            {"kernel", {DType::f32, {rows, params.has("kernel_width") ? static_cast<std::size_t>(params.integer("kernel_width")) : rows}}}};
  }
  // The image and kernel (and an OpenCL copy), and the (H+K-1)×(W+L-1)
  // output three times: the reference's float64, the rung's float32 and an
  // OpenCL rung's float32 buffer, 16 bytes an output pixel.
  double host_bytes(const ArrayShapes& inputs, const Params&) const override {
    const auto& image = inputs.at("image").shape;
    const auto& kernel = inputs.at("kernel").shape;
    double output_pixels = 0;  // inputs that are not 2-D are refused later, by validate()
    if (image.size() == 2 && kernel.size() == 2)
      output_pixels = double(image[0] + kernel[0] - 1) * double(image[1] + kernel[1] - 1);
    return 2 * total_bytes(inputs) + 16 * output_pixels;
  }

  // In float64, in the order that vectorises: out[y][c + j] += k[i][j] * image[y - i][c],
  // with i limited to the kernel rows that meet the image (no bounds check inside).
  Arrays reference(const Arrays& inputs, const Params&) const override {
    const Array& image_array = inputs.at("image");
    const Array& kernel_array = inputs.at("kernel");
    const long height = static_cast<long>(image_array.shape()[0]), width = static_cast<long>(image_array.shape()[1]);
    const long rows = static_cast<long>(kernel_array.shape()[0]), columns = static_cast<long>(kernel_array.shape()[1]);
    const long out_rows = height + rows - 1, out_columns = width + columns - 1;
    Array output(DType::f64, {static_cast<std::size_t>(out_rows), static_cast<std::size_t>(out_columns)});
    const float* image = image_array.view<float>().data();
    const float* kernel = kernel_array.view<float>().data();
    double* out = output.view<double>().data();
#pragma omp parallel for schedule(dynamic, 4)
    for (long y = 0; y < out_rows; ++y) {
      double* out_row = out + y * out_columns;
      for (long i = std::max(0L, y - height + 1); i <= std::min(rows - 1, y); ++i) {
        const float* image_row = image + (y - i) * width;
        for (long j = 0; j < columns; ++j) {
          const double w = kernel[i * columns + j];
          double* target = out_row + j;
          for (long c = 0; c < width; ++c) target[c] += w * image_row[c];
        }
      }
    }
    return {{"output", std::move(output)}};
  }

  // ||got - ref||_2 / ||ref||_2 <= 1e-5; an all-zero reference wants an all-zero output.
  CheckResult check(const Arrays& got, const Arrays& expected) const override {
    CheckResult result;
    const Array& want = expected.at("output");
    auto found = got.find("output");
    if (found == got.end()) {
      result.detail = "output 'output' is missing";
      return result;
    }
    const Array& have = found->second;
    if (have.dtype() != DType::f32 || have.shape() != want.shape()) {
      result.detail = "output 'output' is a " + have.describe() + ", expected a float32 array of shape " +
                      shape_text(want.shape()[0], want.shape()[1]);
      return result;
    }
    const auto values = have.view<float>();
    auto reference_value = [&](std::size_t i) {
      return want.dtype() == DType::f64 ? want.view<double>()[i] : double{want.view<float>()[i]};
    };
    double error_squares = 0, reference_squares = 0, max_error = 0;
    std::size_t worst = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const double ref = reference_value(i);
      const double error = std::abs(double{values[i]} - ref);
      error_squares += error * error;
      reference_squares += ref * ref;
      if (!(error <= max_error)) max_error = error, worst = i;  // NaN counts as the worst
    }
    const double relative = reference_squares > 0 ? std::sqrt(error_squares / reference_squares)
                            : error_squares == 0  ? 0.0
                                                  : std::numeric_limits<double>::infinity();
    result.ok = relative <= kTolerance;
    result.figures = {{"comparison", "relative L2 error"},
                      {"relative_l2_error", relative},
                      {"tolerance", kTolerance},
                      {"max_abs_error", max_error}};
    const std::size_t columns = want.shape()[1];
    result.detail = "relative L2 error " + number_text(relative, kFloatDigits) + (result.ok ? " <= " : " exceeds ") +
                    number_text(kTolerance, kFloatDigits);
    if (!result.ok)
      result.detail += (reference_squares > 0 ? "" : " (the reference is all zeros)") +
                       std::string("; largest difference at (row ") + std::to_string(worst / columns) + ", column " +
                       std::to_string(worst % columns) +
                       "): expected " + number_text(reference_value(worst), kFloatDigits) +
                       ", got " + number_text(values[worst], kFloatDigits);
    return result;
  }

  // naive: one bounds-checked multiply-add at a time, about 2 ns each (1.6-2.0
  // ns on the 2-core AMD EPYC at the workshop size, 2.3 ns on the H200
  // machine's Xeon at the large one, where it took 34.7 s a run).
  std::optional<Prediction> predict(const std::string& rung, const Params& params) const override {
    if (rung != "naive" && rung != "python_loops") return std::nullopt;
    const double rows = double(params.integer("kernel_size"));
    const double columns = params.has("kernel_width") ? double(params.integer("kernel_width")) : rows;
    const double outputs = (double(params.integer("height")) + rows - 1) * (double(params.integer("width")) + columns - 1);
    // The pure-Python loops: 1.00 s at 256² ⊗ 15² on the development machine kind.
    if (rung == "python_loops")
      return Prediction{outputs * rows * columns * 6.1e-8, "a multiply-add in pure Python, about 61 ns each"};
    return Prediction{outputs * rows * columns * 2e-9, "naive does every multiply-add with its bounds checks"};
  }

  Work work(const Arrays& inputs, const Params&) const override {
    const double image = static_cast<double>(inputs.at("image").size());
    const double kernel = static_cast<double>(inputs.at("kernel").size());
    const auto [rows, columns] = output_shape(inputs);
    const double output = static_cast<double>(rows * columns);
    // One multiply and one add per kernel tap per output pixel.
    return {.bytes = 4 * (image + kernel + output),
            .operations = 2 * kernel * output,
            .bytes_in = 4 * (image + kernel),
            .bytes_out = 4 * output,
            .fp32_bound = true};
  }

 private:
  static std::pair<std::size_t, std::size_t> output_shape(const Arrays& inputs) {
    const auto& image = inputs.at("image").shape();
    const auto& kernel = inputs.at("kernel").shape();
    return {image[0] + kernel[0] - 1, image[1] + kernel[1] - 1};
  }
};

LADDER_REGISTER_PROBLEM(Convolution);

}  // namespace
}  // namespace ladder
