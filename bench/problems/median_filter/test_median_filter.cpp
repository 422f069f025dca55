// median_filter: every rung equals the reference bit for bit on the check
// cases (1×1 frames, k larger than the frame, one frame and many, uint16,
// float32 and float64, remove_outlier bright and dark) and on larger
// awkward stacks; rungs that cannot run here are skipped, never passed.
// The reference is held against an independent brute force (a counting
// median, a bouncing reflect) and against values scipy printed; bad input
// is refused; cuda_streams under a device-memory cap smaller than the stack
// slices it, recovers from the failed allocations, and is still exact.
// The serial rung's selection networks are held against the sort they
// replace: exhaustively on 0-1 inputs, and on random windows with ties.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "bench/problems/median_filter/given/naive.hpp"
#include "bench/problems/median_filter/median_filter.hpp"
#include "ladder/error.hpp"
#include "ladder/harness.hpp"
#include "ladder/random.hpp"
#include "ladder/registry.hpp"
#include "rung_test.hpp"
#include "solutions/median_filter/selection_network.hpp"

namespace ladder {
namespace {

using testing::RungCase;

Params median_params(std::map<std::string, std::string> values) { return Params(std::move(values)); }

template <class T>
Array array_of(std::vector<std::size_t> shape, const std::vector<T>& values) {
  Array array(dtype_of<T>(), std::move(shape));
  std::copy(values.begin(), values.end(), array.view<T>().begin());
  return array;
}

// Reflect by bouncing off the edges one at a time (the definition, not a formula).
long bounce(long i, long n) {
  while (i < 0 || i >= n) i = i < 0 ? -i - 1 : 2 * n - 1 - i;
  return i;
}

// The median by counting: the value v with fewer than m values below it and
// at least m + 1 values at or below it (m = n / 2, n odd).
template <class T>
std::vector<T> brute_force(const Array& image, int k, const std::string& mode = "median", double diff = 0,
                           bool bright = true) {
  const auto stack = median_filter::stack_of(image);
  const long h = long(stack.height), w = long(stack.width), r = k / 2;
  auto in = image.view<T>();
  std::vector<T> out(in.size());
  for (std::size_t f = 0; f < stack.frames; ++f)
    for (long y = 0; y < h; ++y)
      for (long x = 0; x < w; ++x) {
        std::vector<T> values;
        for (long i = -r; i <= r; ++i)
          for (long j = -r; j <= r; ++j) values.push_back(in[f * h * w + bounce(y + i, h) * w + bounce(x + j, w)]);
        const long m = long(values.size()) / 2;
        T median{};
        for (T v : values) {
          long below = 0, at_or_below = 0;
          for (T u : values) below += u < v, at_or_below += u <= v;
          if (below <= m && at_or_below > m) median = v;
        }
        const T pixel = in[f * h * w + y * w + x];
        const double d = bright ? double(pixel) - double(median) : double(median) - double(pixel);
        out[f * h * w + y * w + x] = mode == "median" || d > diff ? median : pixel;
      }
  return out;
}

template <class T>
std::vector<T> reference_of(const Array& image, const Params& params) {
  Arrays out = make_problem("median_filter")->reference({{"image", image}}, params);
  auto values = out.at("output").view<T>();
  return {values.begin(), values.end()};
}

class MedianFilterRungTest : public ::testing::TestWithParam<RungCase> {};

TEST_P(MedianFilterRungTest, EqualsTheReferenceOnTheCheckCasesAndLargerAwkwardStacks) {
  // Several tiles and blocks in each direction, none of them whole; each GPU path.
  testing::expect_rung_matches_reference(
      "median_filter", GetParam(),
      {median_params({{"frames", "2"}, {"height", "101"}, {"width", "131"}, {"size", "3"}}),
       median_params({{"frames", "3"}, {"height", "67"}, {"width", "70"}, {"size", "7"}, {"dtype", "uint16"}}),
       median_params({{"frames", "1"}, {"height", "70"}, {"width", "90"}, {"size", "15"}, {"mode", "remove_outlier"}}),
       median_params({{"frames", "2"}, {"height", "45"}, {"width", "53"}, {"size", "5"}, {"dtype", "float64"},
                      {"mode", "remove_outlier"}, {"direction", "dark"}})});
}

TEST_P(MedianFilterRungTest, FiltersHandMadeImagesAsScipyDoes) {
  auto problem = make_problem("median_filter");
  const RungEntry* entry = find_rung("median_filter", GetParam().rung);
  if (entry == nullptr) GTEST_SKIP() << GetParam().rung << " is not built in this build";
  RunOptions options;
  options.pinned = GetParam().pinned;
  Availability availability = backend_availability(entry->backend, options);
  if (!availability.available) GTEST_SKIP() << availability.reason;
  // Values printed by scipy.ndimage.median_filter(image, size=k, mode='reflect').
  struct Case {
    Array image;
    const char* size;
    Array want;
  };
  std::vector<Case> cases;
  cases.push_back({array_of<float>({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}), "3",
                   array_of<float>({3, 3}, {2, 3, 3, 4, 5, 6, 7, 7, 8})});
  cases.push_back({array_of<float>({1, 4}, {5, 1, 9, 3}), "3", array_of<float>({1, 4}, {5, 5, 3, 3})});
  cases.push_back({array_of<float>({1, 4}, {5, 1, 9, 3}), "7", array_of<float>({1, 4}, {5, 3, 5, 3})});
  cases.push_back({array_of<std::uint16_t>({3, 1}, {3, 1, 2}), "15", array_of<std::uint16_t>({3, 1}, {2, 2, 2})});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.image.describe() + ", size " + c.size);
    const Params params = median_params({{"size", c.size}});
    CheckResult result = problem->check(run_once(*entry, {{"image", c.image}}, params, options, *problem),
                                        {{"output", c.want}});
    EXPECT_TRUE(result.ok) << result.detail;
  }
}

INSTANTIATE_TEST_SUITE_P(Rungs, MedianFilterRungTest, ::testing::ValuesIn(testing::rung_cases("median_filter")),
                         testing::rung_case_name);

// Runs a network on one set of values, one compare-exchange at a time.
template <class T>
void apply(const std::vector<median_filter::CompareExchange>& network, std::vector<T>& values) {
  for (const auto& step : network) {
    const T low = std::min(values[step.low], values[step.high]), high = std::max(values[step.low], values[step.high]);
    if (step.keep_min) values[step.low] = low;
    if (step.keep_max) values[step.high] = high;
  }
}

TEST(MedianFilterNetworkTest, SortingNetworkSortsEveryLengthFromOneToSixteen) {
  std::mt19937 generator(7);
  for (int n = 1; n <= 16; ++n) {
    const auto network = median_filter::sorting_network(n);
    for (int trial = 0; trial < 200; ++trial) {
      std::vector<int> values(std::size_t(n), 0);
      for (int& v : values) v = int(generator() % 5);  // many ties
      std::vector<int> want = values;
      std::sort(want.begin(), want.end());
      apply(network, values);
      ASSERT_EQ(values, want) << "n = " << n;
    }
  }
}

TEST(MedianFilterNetworkTest, MedianNetworkPicksTheMiddleOfEveryZeroOneWindowWithSortedColumns) {
  // By the 0-1 principle this proves the pruned network for k = 1 to 7 (7
  // is the largest the GPU's cuda_network unrolls): every window of sorted
  // 0-1 columns, (k+1)^k of them (2·10^6 at k = 7), 64 at a time, one per
  // bit (min is AND, max is OR). A sorted 0-1 column is fixed by its number
  // of zeros on top.
  for (int k = 1; k <= 7; k += 2) {
    const auto network = median_filter::median_network(k);
    const int n = k * k;
    long windows = 1;
    for (int c = 0; c < k; ++c) windows *= k + 1;
    for (long first = 0; first < windows; first += 64) {
      std::vector<std::uint64_t> bits(std::size_t(n), 0);
      std::uint64_t lanes = 0, want = 0;  // want: lanes whose window has more ones than zeros
      for (long b = 0; b < 64 && first + b < windows; ++b) {
        long code = first + b;
        int ones = 0;
        for (int c = 0; c < k; ++c, code /= k + 1)
          for (int i = int(code % (k + 1)); i < k; ++i, ++ones) bits[std::size_t(c * k + i)] |= std::uint64_t(1) << b;
        lanes |= std::uint64_t(1) << b;
        if (ones > n / 2) want |= std::uint64_t(1) << b;
      }
      for (const auto& step : network) {
        const std::uint64_t low = bits[std::size_t(step.low)], high = bits[std::size_t(step.high)];
        if (step.keep_min) bits[std::size_t(step.low)] = low & high;
        if (step.keep_max) bits[std::size_t(step.high)] = low | high;
      }
      ASSERT_EQ(bits[std::size_t(n / 2)] & lanes, want) << "k = " << k << ", windows from " << first;
    }
  }
}

// The pair network of cuda_network (two windows side by side, k + 1
// sorted columns): by the 0-1 principle, proved for k = 3, 5 and 7 on every
// set of k + 1 sorted 0-1 columns ((k+1)^(k+1) of them: 1.7·10^7 at k = 7),
// 64 at a time, one per bit: each window's median ends where
// pair_median_positions says.
TEST(MedianFilterNetworkTest, PairMedianNetworkPicksBothMiddlesOfEveryZeroOnePair) {
  for (int k = 3; k <= 7; k += 2) {
    const auto network = median_filter::pair_median_network(k);
    const auto at = median_filter::pair_median_positions(k);
    const int n = (k + 1) * k;
    long pairs = 1;
    for (int c = 0; c <= k; ++c) pairs *= k + 1;
    std::vector<std::uint64_t> bits(static_cast<std::size_t>(n), 0);
    for (long first = 0; first < pairs; first += 64) {
      std::fill(bits.begin(), bits.end(), 0);
      std::uint64_t lanes = 0, want_left = 0, want_right = 0;  // lanes whose window has more ones than zeros
      for (long b = 0; b < 64 && first + b < pairs; ++b) {
        long code = first + b;
        std::vector<int> ones(std::size_t(k + 1), 0);
        for (int c = 0; c <= k; ++c, code /= k + 1)
          for (int i = int(code % (k + 1)); i < k; ++i, ++ones[std::size_t(c)])
            bits[std::size_t(c * k + i)] |= std::uint64_t(1) << b;
        const int all = std::accumulate(ones.begin(), ones.end(), 0);
        lanes |= std::uint64_t(1) << b;
        if (all - ones[std::size_t(k)] > k * k / 2) want_left |= std::uint64_t(1) << b;
        if (all - ones[0] > k * k / 2) want_right |= std::uint64_t(1) << b;
      }
      for (const auto& step : network) {
        const std::uint64_t low = bits[std::size_t(step.low)], high = bits[std::size_t(step.high)];
        if (step.keep_min) bits[std::size_t(step.low)] = low & high;
        if (step.keep_max) bits[std::size_t(step.high)] = low | high;
      }
      ASSERT_EQ(bits[std::size_t(at[0])] & lanes, want_left) << "k = " << k << ", pairs from " << first;
      ASSERT_EQ(bits[std::size_t(at[1])] & lanes, want_right) << "k = " << k << ", pairs from " << first;
    }
  }
}

// And on values with ties and negatives, against nth_element, after the
// column sort: fewer operations per window than one window's network.
TEST(MedianFilterNetworkTest, PairMedianNetworkEqualsNthElementAndCostsLessThanTwoWindows) {
  std::mt19937 generator(13);
  for (int k = 3; k <= 7; k += 2) {
    const auto network = median_filter::pair_median_network(k);
    const auto at = median_filter::pair_median_positions(k);
    const auto column_sort = median_filter::sorting_network(k);
    EXPECT_LT(median_filter::operations(network), 2 * median_filter::operations(median_filter::median_network(k)));
    for (int trial = 0; trial < 300; ++trial) {
      std::vector<float> values(std::size_t((k + 1) * k));
      for (float& v : values) v = float(generator() % 13) - 6.5f;
      std::vector<float> left(values.begin(), values.begin() + k * k), right(values.begin() + k, values.end());
      std::nth_element(left.begin(), left.begin() + k * k / 2, left.end());
      std::nth_element(right.begin(), right.begin() + k * k / 2, right.end());
      for (int c = 0; c <= k; ++c) {
        std::vector<float> column(values.begin() + c * k, values.begin() + c * k + k);
        apply(column_sort, column);
        std::copy(column.begin(), column.end(), values.begin() + c * k);
      }
      apply(network, values);
      ASSERT_EQ(values[std::size_t(at[0])], left[std::size_t(k * k / 2)]) << "k = " << k;
      ASSERT_EQ(values[std::size_t(at[1])], right[std::size_t(k * k / 2)]) << "k = " << k;
    }
  }
}

// The quad networks of cuda_quads (four windows side by side, k + 3 sorted
// columns, k = 7): the shared network over the four's columns 3 .. k-1,
// then the pair network over each pair's layout, against nth_element on
// values with ties and negatives, and on 0-1 values (each column's number
// of ones at random: the cases the 0-1 principle is about); cheaper per
// output than the pair network.
TEST(MedianFilterNetworkTest, QuadNetworksEqualNthElementForFourWindowsAndCostLessThanPairs) {
  constexpr int k = 7, middle = k * k / 2;
  const auto quad = median_filter::quad_median_networks(k);
  EXPECT_LT(2 * median_filter::operations(quad.pair) + median_filter::operations(quad.shared),
            2 * median_filter::operations(median_filter::pair_median_network(k)));
  const auto column_sort = median_filter::sorting_network(k);
  std::mt19937 generator(17);
  for (int trial = 0; trial < 4000; ++trial) {
    const bool zero_one = trial % 2 == 1;
    std::vector<std::vector<float>> columns(std::size_t(k + 3));  // each sorted
    for (auto& column : columns) {
      const int ones = int(generator() % (k + 1));
      for (int i = 0; i < k; ++i) column.push_back(zero_one ? float(i >= k - ones) : float(generator() % 13) - 6.5f);
      apply(column_sort, column);
    }
    std::vector<float> shared;  // the four's columns 3 .. k-1
    for (int c = 3; c < k; ++c) shared.insert(shared.end(), columns[std::size_t(c)].begin(), columns[std::size_t(c)].end());
    apply(quad.shared, shared);
    for (int pair = 0; pair < 2; ++pair) {
      std::vector<float> values;  // the shared ranks, two more shared columns, each window's own
      for (int at : quad.shared_positions) values.push_back(shared[std::size_t(at)]);
      const int more = pair == 0 ? 1 : k, own = 2 * pair;
      for (int c : {more, more + 1, own, own + k})
        values.insert(values.end(), columns[std::size_t(c)].begin(), columns[std::size_t(c)].end());
      apply(quad.pair, values);
      for (int side = 0; side < 2; ++side) {
        std::vector<float> window;
        for (int c = own + side; c < own + side + k; ++c)
          window.insert(window.end(), columns[std::size_t(c)].begin(), columns[std::size_t(c)].end());
        std::nth_element(window.begin(), window.begin() + middle, window.end());
        ASSERT_EQ(values[std::size_t(quad.pair_medians[std::size_t(side)])], window[std::size_t(middle)])
            << "trial " << trial << ", window " << own + side;
      }
    }
  }
}

TEST(MedianFilterNetworkTest, ColumnSortThenMedianNetworkEqualsNthElementForEveryWindowSize) {
  std::mt19937 generator(11);
  for (int k = 1; k <= 15; k += 2) {
    const auto& networks = median_filter::networks_for(k);
    for (int trial = 0; trial < 100; ++trial) {
      std::vector<float> window(std::size_t(k * k));
      for (float& v : window) v = float(generator() % 17) - 8.5f;  // ties and negatives
      std::vector<float> want = window;
      std::nth_element(want.begin(), want.begin() + k * k / 2, want.end());
      for (int c = 0; c < k; ++c) {  // column c is values c·k .. c·k + k - 1
        std::vector<float> column(window.begin() + c * k, window.begin() + c * k + k);
        apply(networks.column, column);
        std::copy(column.begin(), column.end(), window.begin() + c * k);
      }
      apply(networks.median, window);
      ASSERT_EQ(window[std::size_t(k * k / 2)], want[std::size_t(k * k / 2)]) << "k = " << k;
    }
  }
}

// The serial rung's selection network takes about 0.4 s at the large size
// (64 × 2048², k = 3): a run under --time-budget 10 must time it (the
// prediction of the sorted window it replaced, 17 s, skipped it).
TEST(MedianFilterTest, SerialIsPredictedInsideATenSecondBudgetAtTheLargeSize) {
  auto problem = make_problem("median_filter");
  EXPECT_LT(problem->predict("serial", problem->resolve("large", {}))->seconds, 10);
  EXPECT_GT(problem->predict("naive", problem->resolve("large", {}))->seconds, 10);
}

TEST(MedianFilterTest, ReflectIsScipysHalfSampleSymmetricRuleRepeated) {
  // scipy on [10, 20, 30, 40]: offsets -9, -5, -1, 4, 7, 12 read 10, 40, 10, 40, 10, 40.
  const std::vector<std::pair<long, long>> cases = {{-9, 0}, {-5, 3}, {-1, 0}, {4, 3}, {7, 0}, {12, 3}};
  for (const auto& [i, want] : cases) EXPECT_EQ(median_filter::reflect(i, 4), want) << i;
  for (long n = 1; n <= 6; ++n)
    for (long i = -40; i < 40; ++i) ASSERT_EQ(median_filter::reflect(i, n), bounce(i, n)) << i << " in " << n;
}

TEST(MedianFilterTest, ReferenceEqualsTheCountingBruteForceOnEveryDtypeAndAwkwardShape) {
  auto problem = make_problem("median_filter");
  const std::vector<std::map<std::string, std::string>> cases = {
      {{"frames", "1"}, {"height", "1"}, {"width", "1"}, {"size", "15"}},
      {{"frames", "2"}, {"height", "1"}, {"width", "9"}, {"size", "5"}, {"dtype", "uint16"}},
      {{"frames", "1"}, {"height", "11"}, {"width", "1"}, {"size", "7"}, {"dtype", "float64"}},
      {{"frames", "3"}, {"height", "5"}, {"width", "4"}, {"size", "13"}, {"dtype", "uint16"}},
      {{"frames", "0"}, {"height", "12"}, {"width", "13"}, {"size", "3"}},
      {{"frames", "2"}, {"height", "9"}, {"width", "10"}, {"size", "5"}, {"mode", "remove_outlier"}},
      {{"frames", "2"}, {"height", "9"}, {"width", "10"}, {"size", "5"}, {"dtype", "uint16"},
       {"mode", "remove_outlier"}, {"direction", "dark"}}};
  std::uint64_t seed = 7;
  for (const auto& values : cases) {
    const Params params = problem->resolve("tiny", median_params(values));
    const median_filter::Settings settings = median_filter::settings_of(params);
    const Array image = problem->generate(params, seed++).at("image");
    SCOPED_TRACE(image.describe() + " size " + params.text("size") + " " + params.text("mode"));
    median_filter::with_pixel_type(image.dtype(), [&](auto tag) {
      using T = decltype(tag);
      EXPECT_EQ(reference_of<T>(image, params),
                brute_force<T>(image, settings.size, params.text("mode"), settings.diff, settings.bright));
    });
  }
}

TEST(MedianFilterTest, RemoveOutlierChangesOnlyThePixelsBeyondDiffInTheirDirection) {
  auto problem = make_problem("median_filter");
  for (const char* direction : {"bright", "dark"}) {
    const Params params = problem->resolve(
        "tiny", median_params({{"mode", "remove_outlier"}, {"direction", direction}, {"diff", "50"}}));
    const Array image = problem->generate(params, 3).at("image");
    const auto in = image.view<float>();
    const auto median = reference_of<float>(image, problem->resolve("tiny", {}));
    const auto out = reference_of<float>(image, params);
    std::size_t changed = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
      const double d = std::string(direction) == "bright" ? double(in[i]) - median[i] : median[i] - double(in[i]);
      ASSERT_EQ(out[i], d > 50 ? median[i] : in[i]) << direction << " index " << i;
      changed += out[i] != in[i];
    }
    EXPECT_GT(changed, 0u) << direction << ": the generated stack has outliers to remove";
  }
}

TEST(MedianFilterTest, RefusesEvenSizesUnknownModesNegativeDiffAndNaN) {
  auto problem = make_problem("median_filter");
  auto refused = [&](std::map<std::string, std::string> values, const std::string& words) {
    testing::expect_usage_error([&] { problem->resolve("tiny", median_params(std::move(values))); }, words);
  };
  refused({{"size", "4"}}, "size=4");
  refused({{"size", "0"}}, "size=0");
  refused({{"size", "-3"}}, "size=-3");
  refused({{"size", "17"}}, "accepted: 1, 3, 5, 7, 9, 11, 13, 15");
  refused({{"mode", "mean"}}, "mode=mean");
  refused({{"direction", "up"}}, "direction=up");
  refused({{"diff", "-1"}}, "diff=-1");

  auto refused_input = [&](const Array& image, const std::string& words) {
    try {
      problem->validate({{"image", image}}, {});
      ADD_FAILURE() << image.describe() << " accepted";
    } catch (const UsageError& error) {
      EXPECT_NE(std::string(error.what()).find(words), std::string::npos) << error.what();
    }
  };
  refused_input(Array(DType::u8, {4, 4}), "uint8");
  refused_input(Array(DType::i32, {4, 4}), "int32");
  refused_input(Array(DType::f32, {16}), "H×W or F×H×W");
  refused_input(Array(DType::f32, {2, 2, 2, 2}), "H×W or F×H×W");
  refused_input(Array(DType::f32, {0, 4}), "empty");
  Array with_nan(DType::f32, {2, 3, 4});
  with_nan.view<float>()[1 * 12 + 2 * 4 + 3] = std::numeric_limits<float>::quiet_NaN();
  refused_input(with_nan, "NaN at (frame 1, row 2, column 3)");
  Array f64_nan(DType::f64, {3, 3});
  f64_nan.view<double>()[4] = std::nan("");
  refused_input(f64_nan, "NaN");

  EXPECT_NO_THROW(problem->validate({{"image", Array(DType::u16, {1, 1})}}, {}));
  EXPECT_NO_THROW(problem->validate({{"image", Array(DType::f64, {2, 1, 1})}}, {}));
  Array infinite(DType::f32, {2, 2});
  infinite.view<float>()[0] = std::numeric_limits<float>::infinity();  // ordered: a median is defined
  EXPECT_NO_THROW(problem->validate({{"image", infinite}}, {}));
}

TEST(MedianFilterTest, OutputHasTheInputsDtypeAndShape) {
  auto problem = make_problem("median_filter");
  for (auto [dtype, shape] : {std::pair{DType::u16, std::vector<std::size_t>{3, 4, 5}},
                              std::pair{DType::f32, std::vector<std::size_t>{4, 5}},
                              std::pair{DType::f64, std::vector<std::size_t>{1, 1, 1}}}) {
    Arrays out = problem->allocate_outputs({{"image", Array(dtype, shape)}}, {});
    EXPECT_EQ(out.at("output").dtype(), dtype);
    EXPECT_EQ(out.at("output").shape(), shape);
  }
}

TEST(MedianFilterTest, PresetsAreTheExercisesSizes) {
  auto problem = make_problem("median_filter");
  const Params large = problem->resolve("large", {});
  EXPECT_EQ(large.integer("frames"), 64);
  EXPECT_EQ(large.integer("height"), 2048);
  EXPECT_EQ(large.integer("width"), 2048);
  EXPECT_EQ(large.text("dtype"), "float32");
  for (const char* k : {"3", "5", "7", "9", "11", "13", "15"})
    EXPECT_NO_THROW(problem->resolve("large", median_params({{"size", k}})));  // the k sweep
  const Array tiny = problem->generate(problem->resolve("tiny", {}), 1).at("image");
  EXPECT_EQ(tiny.describe(), "float32 array of shape (3, 23, 29)");
  EXPECT_EQ(checksum(tiny), checksum(problem->generate(problem->resolve("tiny", {}), 1).at("image")));
}

// The memory cap: a stack several times larger than the cap goes through
// cuda_streams in slices. The first allocation is sized from the free
// memory the driver reports, so it fails under the cap, and the slice is
// halved until it fits: the retry path runs, and the output must be exact.
TEST(MedianFilterTest, CudaStreamsSlicesAStackLargerThanTheMemoryCapAndStaysExact) {
  auto problem = make_problem("median_filter");
  const RungEntry* entry = find_rung("median_filter", "cuda_streams");
  if (entry == nullptr) GTEST_SKIP() << "cuda_streams is not built in this build";
  Availability availability = backend_availability(entry->backend, {});
  if (!availability.available) GTEST_SKIP() << availability.reason;
  for (const char* dtype : {"float32", "uint16"}) {
    // 37 frames of 300×301: 13 MiB of float32 in, as much out, under a 3 MiB cap.
    const Params params = problem->resolve("tiny", median_params({{"frames", "37"}, {"height", "300"},
                                                                  {"width", "301"}, {"size", "7"}, {"dtype", dtype},
                                                                  {"device_memory_cap_mb", "3"}}));
    const Arrays inputs = problem->generate(params, 5);
    CheckResult result = problem->check(run_once(*entry, inputs, params, {}, *problem), problem->reference(inputs, params));
    EXPECT_TRUE(result.ok) << dtype << ": " << result.detail;
  }
  // A cap too small for even one frame is an error that says so, not an output.
  const Params tight = problem->resolve(
      "tiny", median_params({{"frames", "2"}, {"height", "2048"}, {"width", "2048"}, {"device_memory_cap_mb", "1"}}));
  const Arrays inputs = problem->generate(tight, 5);
  try {
    run_once(*entry, inputs, tight, {}, *problem);
    ADD_FAILURE() << "a 1 MiB cap ran a 16 MiB frame";
  } catch (const DeviceError& error) {
    EXPECT_NE(std::string(error.what()).find("device_memory_cap_mb"), std::string::npos) << error.what();
  }
}

// The planted mistake: the naive rung with the edge pixel repeated past the
// border (clamping) where the specification reflects (d c b a | a b c d).
// At k = 3 the two read the same pixel; from k = 5 on they differ. A
// test-only rung of the planted track, which neither `ladder` nor the rung
// tests see; the check case named for the mistake must fail it.
class PlantedBorderClamped final : public median_filter::NaiveMedianFilter {
 public:
  using NaiveMedianFilter::NaiveMedianFilter;

  void compute() override {
    filter([](long i, long n) { return std::clamp(i, 0L, n - 1); });  // the mistake: not reflect()
  }
};
LADDER_PLANTED_MISTAKE(median_filter, serial_border_clamped, PlantedBorderClamped,
                       "the border at k = 5: reflect (b a | a b), not the edge repeated");

}  // namespace
}  // namespace ladder
