// median_filter (bench/problems/median_filter/README.md): the k×k median of each pixel's
// neighbourhood, frame by frame, with scipy's 'reflect' borders, exactly
// scipy.ndimage.median_filter(frame, size=k, mode='reflect'); or, in
// remove_outlier mode, the median only where the pixel differs from it by
// more than diff (bright: above it; dark: below it). A median selects one of
// the input values, so the output is compared bit for bit. The output has
// the input's dtype: float32 (the notes), float64 or uint16 (detectors).
#include "bench/problems/median_filter/median_filter.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ladder/error.hpp"
#include "ladder/random.hpp"
#include "ladder/registry.hpp"

namespace ladder {
namespace {

using median_filter::Settings;
using median_filter::Stack;

// The rungs index a frame with 32-bit ints, and the CUDA grid's z holds a frame.
constexpr std::size_t kMaxFramePixels = std::numeric_limits<std::int32_t>::max();
// Generated images: a flat background with noise, and a few hot (bright)
// and dead (dark) pixels for remove_outlier to find, in percent.
constexpr std::uint32_t kHotPercent = 2, kDeadPercent = 2;

template <class T>
void fill(Array& image, std::uint64_t seed) {
  auto values = image.view<T>();
  const CounterRng noise(seed, 0), outliers(seed, 1);
  const long count = static_cast<long>(values.size());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < count; ++i) {
    const std::uint32_t pick = outliers.below(i, 100);
    if constexpr (std::is_same_v<T, std::uint16_t>) {
      // Few distinct values: the medians have ties to get right.
      std::uint32_t value = 100 + noise.below(i, 21);
      if (pick < kHotPercent) value = 65000 + noise.below(i, 536);
      if (pick >= kHotPercent && pick < kHotPercent + kDeadPercent) value = noise.below(i, 4);
      values[i] = static_cast<std::uint16_t>(value);
    } else {
      T value = T(100) + T(20) * static_cast<T>(std::is_same_v<T, float> ? double(noise.uniform_float32(i))
                                                                          : noise.uniform_float64(i));
      if (pick < kHotPercent) value += T(1000);
      if (pick >= kHotPercent && pick < kHotPercent + kDeadPercent) value -= T(100);
      values[i] = value;
    }
  }
}

// One frame of the reference: gather the window with reflect, take the
// middle element with nth_element.
template <class T>
void reference_frame(const T* in, T* out, const Stack& stack, const Settings& settings) {
  const long height = static_cast<long>(stack.height), width = static_cast<long>(stack.width);
  const long r = settings.radius(), n = long(settings.size) * settings.size;
#pragma omp parallel for schedule(dynamic, 4)
  for (long y = 0; y < height; ++y) {
    std::vector<T> window(n);
    for (long x = 0; x < width; ++x) {
      long at = 0;
      for (long i = -r; i <= r; ++i)
        for (long j = -r; j <= r; ++j)
          window[at++] = in[median_filter::reflect(y + i, height) * width + median_filter::reflect(x + j, width)];
      std::nth_element(window.begin(), window.begin() + n / 2, window.end());
      out[y * width + x] = median_filter::choose(in[y * width + x], window[n / 2], settings);
    }
  }
}

class MedianFilter final : public Problem {
 public:
  std::string name() const override { return "median_filter"; }
  std::string summary() const override {
    return "k×k median filter of an image stack, reflect borders, or remove-outlier mode "
           "(scipy.ndimage.median_filter, bit-exact)";
  }
  // cuda keeps the whole stack on the device; cuda_streams slices a stack
  // of any size through it, with streams and out-of-memory recovery.
  std::vector<std::string> rungs() const override {
    return {"naive", "serial", "openmp", "opencl", "cuda", "cuda_network", "cuda_streams"};
  }

  // The mpi rungs split the stack by frames: weak scaling grows their number.
  std::optional<std::string> weak_scaling_parameter(const Params& params) const override {
    if (!params.has("frames") || params.integer("frames") == 0)
      throw UsageError("--weak: median_filter's ranks split a stack by frames, and frames=0 is one image: "
                       "give --param frames=N");
    return "frames";
  }

  std::vector<ParamSpec> params() const override {
    return {{"frames", "frames of the generated stack (0: one 2-D H×W image)", 0, 65535, true, true},
            {"height", "rows of each frame", 1, 32768, true, true},
            {"width", "columns of each frame", 1, 32768, true, true},
            {.name = "dtype",
             .description = "pixel type of the generated stack; the output has the input's type",
             .generator_only = true,
             .choices = {"float32", "uint16", "float64"}},
            {.name = "size",
             .description = "k, the side of the k×k window: odd, 1 to 15 (larger than the frame is fine)",
             .choices = {"1", "3", "5", "7", "9", "11", "13", "15"}},
            {.name = "mode",
             .description = "median (default): every pixel becomes its median; remove_outlier: only pixels that "
                            "differ from it by more than diff",
             .choices = {"median", "remove_outlier"}},
            {"diff", "remove_outlier: the threshold (>= 0, in pixel units)", 0, 1e300, false},
            {.name = "direction",
             .description = "remove_outlier: bright (pixel - median > diff, default) or dark (median - pixel > diff)",
             .choices = {"bright", "dark"}},
            {"device_memory_cap_mb",
             "cuda_streams: use at most this many MiB of device memory (0: no cap); forces slicing and the "
             "out-of-memory retry",
             0, 1 << 24, true}};
  }
  std::vector<SizePreset> sizes() const override {
    auto preset = [](const char* name, const char* frames, const char* side_y, const char* side_x, const char* size) {
      return SizePreset{name, {{"frames", frames}, {"height", side_y}, {"width", side_x}, {"size", size},
                               {"dtype", "float32"}, {"mode", "median"}, {"diff", "50"}, {"direction", "bright"}}};
    };
    return {preset("tiny", "3", "23", "29", "5"), preset("workshop", "8", "1024", "1024", "3"),
            preset("large", "64", "2048", "2048", "3")};
  }
  std::vector<InputSpec> inputs() const override {
    return {{"image", "float32, float64 or uint16 array, H×W (one frame) or F×H×W (a stack), no NaN"}};
  }

  std::vector<CheckCase> check_cases() const override {
    // 1×1 frames (with k = 1 and the largest k), single rows and columns,
    // k larger than the frame, a 2-D image, many frames, every dtype, both
    // remove_outlier directions, and each GPU kernel path (k = 3, 5 and 7
    // in registers, 9 to 15 the general one) on sizes no tile divides. At
    // k = 3 the border rule 'reflect' reads the edge pixel itself, as
    // clamping to the edge would: only k >= 5 tells the two apart. On 2 or 3
    // mpi ranks, one and two frames leave a rank with none, and 3, 4 and 7
    // frames are shared unevenly.
    auto make = [](const char* catches, const char* frames, const char* height, const char* width, const char* size,
                   const char* dtype, const char* mode = "median", const char* direction = "bright") {
      return CheckCase{Params(std::map<std::string, std::string>{{"frames", frames},
                                                                 {"height", height},
                                                                 {"width", width},
                                                                 {"size", size},
                                                                 {"dtype", dtype},
                                                                 {"mode", mode},
                                                                 {"direction", direction}}),
                       catches};
    };
    return {make("a 1 x 1 frame at k = 1; on 2 ranks or more, a rank with no frame", "1", "1", "1", "1", "float32"),
            make("a window wider than the frame: reflect bounces between the edges", "1", "1", "1", "15", "float32"),
            make("a single row", "1", "1", "37", "5", "uint16"),
            make("a single column", "1", "33", "1", "7", "float32"),
            make("a window wider than a 4 x 9 frame; on 3 ranks, one with no frame", "2", "4", "9", "13", "float32"),
            make("a 2-D image (no frames axis)", "0", "23", "29", "3", "float32"),
            make("7 frames, each filtered on its own; on 2 or 3 ranks, uneven shares", "7", "17", "40", "3", "uint16"),
            make("remove_outlier, bright, at k = 7", "3", "33", "47", "7", "float32", "remove_outlier", "bright"),
            make("remove_outlier, dark, at k = 5", "3", "33", "47", "5", "uint16", "remove_outlier", "dark"),
            make("the general kernel (k = 9) on float64", "2", "35", "70", "9", "float64"),
            make("the largest k on a frame no tile divides", "1", "19", "21", "15", "uint16"),
            make("remove_outlier, dark, at k = 11", "2", "40", "37", "11", "float32", "remove_outlier", "dark"),
            make("remove_outlier, bright, at k = 3", "4", "18", "66", "3", "uint16", "remove_outlier", "bright"),
            make("a window wider than a 6 x 5 frame on float64", "1", "6", "5", "7", "float64", "remove_outlier",
                 "bright"),
            make("the border at k = 5: reflect (b a | a b), not the edge repeated", "2", "21", "26", "5", "float32")};
  }

  // Under Oclgrind (check --race): a 1 × 1 frame with k = 1 and the
  // largest k, a single row and column, k larger than the frame, a 2-D
  // image, each kernel path (k = 3, 5, 7 in registers; 9 to 15 the general
  // one) and every dtype, on 16 × 16 tiles with partial ones at both edges.
  // (The general path costs seconds a case on Oclgrind: k = 15 on one pixel
  // and k = 9 over four tiles are enough of it.)
  std::vector<Params> simulator_cases() const override {
    auto make = [](const char* frames, const char* height, const char* width, const char* size, const char* dtype,
                   const char* mode = "median", const char* direction = "bright") {
      return Params(std::map<std::string, std::string>{{"frames", frames},
                                                       {"height", height},
                                                       {"width", width},
                                                       {"size", size},
                                                       {"dtype", dtype},
                                                       {"mode", mode},
                                                       {"direction", direction}});
    };
    return {make("1", "1", "1", "1", "float32"),   make("1", "1", "1", "15", "float32"),
            make("1", "1", "37", "5", "uint16"),   make("1", "33", "1", "7", "float32"),
            make("0", "23", "29", "3", "float32"), make("2", "17", "20", "5", "uint16", "remove_outlier", "dark"),
            make("1", "19", "21", "9", "float64"), make("1", "6", "5", "7", "float64", "remove_outlier", "bright")};
  }

  Arrays generate(const Params& params, std::uint64_t seed) const override {
    const auto frames = static_cast<std::size_t>(params.integer("frames"));
    const auto height = static_cast<std::size_t>(params.integer("height"));
    const auto width = static_cast<std::size_t>(params.integer("width"));
    const std::string& dtype = params.text("dtype");
    const DType type = dtype == "uint16" ? DType::u16 : dtype == "float64" ? DType::f64 : DType::f32;
    std::vector<std::size_t> shape = frames == 0 ? std::vector<std::size_t>{height, width}
                                                 : std::vector<std::size_t>{frames, height, width};
    Array image(type, shape);
    median_filter::with_pixel_type(type, [&](auto tag) { fill<decltype(tag)>(image, seed); });
    return {{"image", std::move(image)}};
  }

  void validate(const Arrays& inputs, const Params&) const override {
    const Array& image = inputs.at("image");
    const DType type = image.dtype();
    if ((type != DType::f32 && type != DType::f64 && type != DType::u16) ||
        (image.shape().size() != 2 && image.shape().size() != 3))
      throw UsageError("input image is a " + image.describe() +
                       "; median_filter takes a float32, float64 or uint16 array, H×W or F×H×W");
    if (image.size() == 0)
      throw UsageError("input image is a " + image.describe() + ", which is empty; median_filter needs pixels");
    const Stack stack = median_filter::stack_of(image);
    if (stack.frame_pixels() > kMaxFramePixels)
      throw UsageError("input image has frames of " + std::to_string(stack.frame_pixels()) +
                       " pixels; median_filter accepts at most 2^31 - 1 pixels per frame");
    if (stack.frames > 65535)
      throw UsageError("input image has " + std::to_string(stack.frames) +
                       " frames; median_filter accepts at most 65535 (split the stack)");
    // The median of values with a NaN among them has no meaning (NaN is not
    // ordered); scipy's answer then depends on its sorting. Refuse it.
    auto refuse_nan = [&](auto values) {
      for (std::size_t i = 0; i < values.size(); ++i)
        if (std::isnan(values[i])) {
          const std::size_t x = i % stack.width, y = i / stack.width % stack.height, f = i / stack.frame_pixels();
          throw UsageError("input image holds NaN at (frame " + std::to_string(f) + ", row " + std::to_string(y) +
                           ", column " + std::to_string(x) +
                           "); a median with NaN is not defined: replace NaN (e.g. numpy.nan_to_num) first");
        }
    };
    if (type == DType::f32) refuse_nan(image.view<float>());
    if (type == DType::f64) refuse_nan(image.view<double>());
  }

  Arrays allocate_outputs(const Arrays& inputs, const Params&) const override {
    const Array& image = inputs.at("image");
    return {{"output", Array(image.dtype(), image.shape())}};
  }

  ArrayShapes input_shapes(const Params& params) const override {
    const auto frames = static_cast<std::size_t>(params.integer("frames"));
    const auto height = static_cast<std::size_t>(params.integer("height"));
    const auto width = static_cast<std::size_t>(params.integer("width"));
    const std::string& dtype = params.text("dtype");
    const DType type = dtype == "uint16" ? DType::u16 : dtype == "float64" ? DType::f64 : DType::f32;
    return {{"image", {type, frames == 0 ? std::vector<std::size_t>{height, width}
                                         : std::vector<std::size_t>{frames, height, width}}}};
  }
  // The image, the output (in the image's dtype) twice, the reference's
  // and the rung's, and an OpenCL copy of image and output: five times the
  // image's bytes. The rungs' windows are k² pixels a thread.
  double host_bytes(const ArrayShapes& inputs, const Params&) const override { return 5 * inputs.at("image").bytes(); }

  Arrays reference(const Arrays& inputs, const Params& params) const override {
    const Array& image = inputs.at("image");
    const Stack stack = median_filter::stack_of(image);
    const Settings settings = median_filter::settings_of(params);
    Array output(image.dtype(), image.shape());
    median_filter::with_pixel_type(image.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* in = image.view<T>().data();
      T* out = output.view<T>().data();
      for (std::size_t f = 0; f < stack.frames; ++f)
        reference_frame(in + f * stack.frame_pixels(), out + f * stack.frame_pixels(), stack, settings);
    });
    return {{"output", std::move(output)}};
  }

  CheckResult check(const Arrays& got, const Arrays& expected) const override {
    return check_identical(got, expected);
  }

  Work work(const Arrays& inputs, const Params& params) const override {
    const Array& image = inputs.at("image");
    const double pixels = static_cast<double>(image.size()), k = median_filter::settings_of(params).size;
    // Operations: one comparison per window element per pixel, a nominal
    // figure (selection needs at least that many; the rungs do more).
    return {.bytes = 2.0 * double(image.bytes()),
            .operations = pixels * k * k,
            .bytes_in = double(image.bytes()),
            .bytes_out = double(image.bytes())};
  }

  // Measured on one core of the development machine (2-core EPYC), rounded up.
  std::optional<Prediction> predict(const std::string& rung, const Params& params) const override {
    const double pixels = double(params.integer("height")) * double(params.integer("width")) *
                          double(std::max<std::int64_t>(1, params.integer("frames")));
    const double k = double(params.integer("size"));
    if (rung == "naive")
      return Prediction{pixels * k * k * 12e-9, "naive gathers and sorts k² values for every pixel"};
    // The pure-Python filter: 6.4 s for 8 frames of 1024² at k = 3 on the development machine kind.
    if (rung == "python_loops")
      return Prediction{pixels * k * k * 1e-7, "a median of k² values in pure Python, about 0.1 µs a value"};
    // The pruned selection network grows about as k³ (18 min/max per pixel
    // at k = 3, 394 at k = 7, columns included), a vector of pixels at a
    // time: about 0.05 ns per min/max and pixel (0.87 ns a pixel at k = 3
    // and 12 ns at k = 7 measured on the 2-core AMD EPYC).
    if (rung == "serial")
      return Prediction{pixels * 1.2 * k * k * k * 0.05e-9, "serial runs a selection network of about 1.2 k³ min/max per pixel"};
    return std::nullopt;
  }
};

LADDER_REGISTER_PROBLEM(MedianFilter);

}  // namespace
}  // namespace ladder
