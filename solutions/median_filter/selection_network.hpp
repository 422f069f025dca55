#pragma once
// The serial and openmp rungs' idea for small windows: a selection network
// (the sorting-network median that OpenCV's medianBlur uses), applied to a
// block of pixels at once, so that every compare-exchange is one vector
// min and one vector max across the block, with no branch.
//
// Two things make it cheaper than a network over the k² values per pixel:
// - The columns are sorted first. A column of k values is in k windows
//   along a row, so it is sorted once (a k-value network) and shared by all
//   k of them.
// - The network is built once per k and pruned (median_networks.hpp):
//   sorted columns, then sorted rows, rule out most values before any
//   comparison between them; a compare-exchange that never exchanges when
//   rows and columns are sorted is dropped (proved by trying every 0-1
//   input with sorted rows and columns, the 0-1 principle: a network that
//   never exchanges on those never exchanges on any such input); then
//   everything that does not lead to the middle value is dropped, keeping
//   only the min or only the max where only one is used.
// For k = 3 that leaves 12 min/max per pixel after the column sort (6),
// against OpenCV's 38; for k = 5, 110 against about 200.
#include <algorithm>
#include <array>
#include <utility>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "bench/problems/median_filter/median_filter.hpp"
#include "solutions/median_filter/median_networks.hpp"
#include "ladder/widest_vectors.hpp"

namespace ladder::median_filter {

// The two networks a filter of size k uses: one sorts a column, the other
// picks the median of the k sorted columns. Building them takes up to
// 4 ms (k = 9, the largest whose idle steps are tried), so they are built
// once per k and program, and a rung asks for them in prepare(), untimed.
struct Networks {
  std::vector<CompareExchange> column, median;
};
inline const Networks& networks_for(int k) {
  static std::mutex building;
  static std::map<int, Networks> built;
  const std::lock_guard<std::mutex> lock(building);
  auto found = built.find(k);
  if (found == built.end()) found = built.emplace(k, Networks{sorting_network(k), median_network(k)}).first;
  return found->second;
}

// LADDER_WIDEST_VECTORS (ladder/widest_vectors.hpp): the widest vector unit
// the processor has, chosen when the program starts; plain x86-64's SSE2
// holds 4 floats and has no unsigned 16-bit min.

template <class T>
class SelectionNetworkFilter {
 public:
  // Pixels filtered at once: each of the k² values of the window is a
  // block of `lanes` values, all of them in the first-level cache.
  static constexpr long lanes = 64;

  SelectionNetworkFilter(const T* in, T* out, const Stack& stack, const Settings& settings, const Networks& networks)
      : in_(in), out_(out), stack_(stack), settings_(settings), networks_(networks) {
    const long r = settings.radius(), width = long(stack.width);
    for (long j = -r; j < width + r; ++j) columns_.push_back(reflect(j, width));
  }

  // Each thread's own working memory.
  struct Scratch {
    std::vector<T> columns, window;
  };
  Scratch scratch() const { return {}; }

  const Stack& stack() const { return stack_; }

  // Filters row y of frame f (defined below the class: a plain function
  // that the other files can call; filter_row's copies for each vector
  // width are local to the file that compiles them).
  void row(std::size_t f, long y, Scratch& scratch) const;

 private:
  // One function per row, compiled for each vector width (see above);
  // defined below the class.
  LADDER_WIDEST_VECTORS static void filter_row(const SelectionNetworkFilter& self, std::size_t f, long y,
                                               Scratch& scratch);

  // k = 3, 5 and 7: the fixed network on whole vectors of pixels (GCC's
  // vector types), as wide as the processor's vector unit: 64 bytes with
  // AVX-512, 32 with AVX2, else 16, chosen once. The width must match the
  // unit: GCC 12 turns each `a < b ? a : b` of a vector wider than the
  // unit into one scalar step per lane (64-byte vectors on an AVX2
  // processor: 37x slower, 210 ms against 5.7 ms on the workshop stack).
  template <int K, class... Arguments>
  static void widest_fixed_rows(const Arguments&... arguments) {
#if LADDER_X86_DISPATCH
    static const int bytes = __builtin_cpu_supports("x86-64-v4") ? 64 : __builtin_cpu_supports("x86-64-v3") ? 32 : 16;
    if (bytes == 64) return fixed_rows_avx512<K>(arguments...);
    if (bytes == 32) return fixed_rows_avx2<K>(arguments...);
#endif
    fixed_rows<K, 16>(arguments...);
  }
#if LADDER_X86_DISPATCH
  template <int K, class... Arguments>
  [[gnu::target("arch=x86-64-v4")]] static void fixed_rows_avx512(const Arguments&... arguments) {
    fixed_rows<K, 64>(arguments...);
  }
  template <int K, class... Arguments>
  [[gnu::target("arch=x86-64-v3")]] static void fixed_rows_avx2(const Arguments&... arguments) {
    fixed_rows<K, 32>(arguments...);
  }
#endif

  // Inlined into the functions above, so compiled for each one's unit.
  template <int K, int Bytes>
  [[gnu::always_inline]] static inline void fixed_rows(const SelectionNetworkFilter& self, const T* const* rows,
                                                       T* sorted, long stride, const T* frame, long y, T* result) {
    using Vector [[gnu::vector_size(Bytes)]] = T;
    // The same, at any address: loaded and stored whole, so that the
    // network's vectors stay in registers (a memcpy into them kept them on
    // the stack, each written as two halves and read back whole: a stalled
    // load per step, 44 ms against 14 ms with AVX2).
    using Unaligned [[gnu::vector_size(Bytes), gnu::aligned(alignof(T))]] = T;
    constexpr long block = Bytes / long(sizeof(T));
    constexpr auto network = fixed_network<K, true>();
    constexpr auto column_network = fixed_network<K, false>();
    constexpr long r = K / 2;
    const long width = long(self.stack_.width), span = width + 2 * r;
    const T* pixels = frame + y * width;

    // The columns sorted straight from the k rows, a vector of columns at
    // a time; the few that remain and the reflected borders one by one.
    // The row below the window is new to the next call: it is fetched
    // into the cache now. (A row of 1024 floats is a 4 KiB page of its
    // own, where the processor's prefetcher stops: without this, half of
    // the time at k = 3 went into waiting for that row.)
    const T* next_row = frame + reflect(y + r + 1, long(self.stack_.height)) * width;
    long done = 0;
    for (; done + block <= width; done += block) {
      __builtin_prefetch(next_row + done);
      Vector v[K];
      for (long i = 0; i < K; ++i) v[i] = *reinterpret_cast<const Unaligned*>(rows[i] + done);
      run_fixed_network<column_network>(v, std::make_index_sequence<column_network.size()>{});
      for (long i = 0; i < K; ++i) *reinterpret_cast<Unaligned*>(sorted + i * stride + r + done) = v[i];
    }
    const long* columns = self.columns_.data();
    auto sort_one_column = [&](long j) {
      T column[K];
      for (long i = 0; i < K; ++i) column[i] = rows[i][columns[j]];
      std::sort(column, column + K);
      for (long i = 0; i < K; ++i) sorted[i * stride + j] = column[i];
    };
    for (long j = 0; j < r; ++j) sort_one_column(j);
    for (long j = r + done; j < span; ++j) sort_one_column(j);
    for (long i = 0; i < K; ++i) std::fill(sorted + i * stride + span, sorted + (i + 1) * stride, T{});

    for (long x0 = 0; x0 < width; x0 += block) {
      Vector v[K * K];
      for (long c = 0; c < K; ++c)
        for (long i = 0; i < K; ++i) v[c * K + i] = *reinterpret_cast<const Unaligned*>(sorted + i * stride + x0 + c);
      run_fixed_network<network>(v, std::make_index_sequence<network.size()>{});
      const long count = std::min(block, width - x0);
      if (!self.settings_.remove_outlier && count == block) {
        *reinterpret_cast<Unaligned*>(result + x0) = v[K * K / 2];
      } else {
        for (long l = 0; l < count; ++l) result[x0 + l] = choose(pixels[x0 + l], v[K * K / 2][l], self.settings_);
      }
    }
  }

  // Every step of the network written out, so that the compiler keeps
  // the window in registers (inlined into the caller's vector width).
  template <auto network, class Vector, std::size_t N, std::size_t... s>
  [[gnu::always_inline]] static void run_fixed_network(Vector (&v)[N], std::index_sequence<s...>) {
    (fixed_step<network[s]>(v), ...);
  }

  template <CompareExchange step, class Vector, std::size_t N>
  [[gnu::always_inline]] static void fixed_step(Vector (&v)[N]) {
    // std::min's and std::max's comparisons (b < a, a < b): two different
    // ones, so that each side is one vector min or max. With one shared
    // `a < b`, GCC compared once and blended twice (AVX2, k = 3: 12
    // compares and 24 blends where 24 min/max do).
    const Vector a = v[step.low], b = v[step.high];
    if constexpr (step.keep_min) v[step.low] = b < a ? b : a;
    if constexpr (step.keep_max) v[step.high] = a < b ? b : a;
  }

  // One compare-exchange on `count` lanes at once: with the sides split
  // out of the loop, each loop is a vector min, a max, or both.
  static void compare_exchange(T* __restrict low, T* __restrict high, long count, bool keep_min, bool keep_max) {
    if (keep_min && keep_max) {
      for (long l = 0; l < count; ++l) {
        const T a = low[l], b = high[l];
        low[l] = std::min(a, b);
        high[l] = std::max(a, b);
      }
    } else if (keep_min) {
      for (long l = 0; l < count; ++l) low[l] = std::min(low[l], high[l]);
    } else {
      for (long l = 0; l < count; ++l) high[l] = std::max(low[l], high[l]);
    }
  }

  const T* in_;
  T* out_;
  Stack stack_;
  Settings settings_;
  const Networks& networks_;
  std::vector<long> columns_;
};

template <class T>
void SelectionNetworkFilter<T>::row(std::size_t f, long y, Scratch& scratch) const {
  filter_row(*this, f, y, scratch);
}

template <class T>
LADDER_WIDEST_VECTORS void SelectionNetworkFilter<T>::filter_row(const SelectionNetworkFilter& self, std::size_t f,
                                                                 long y, Scratch& scratch) {
  const long k = self.settings_.size, r = self.settings_.radius();
  const long height = long(self.stack_.height), width = long(self.stack_.width), span = width + 2 * r;
  const T* frame = self.in_ + f * self.stack_.frame_pixels();
  T* result = self.out_ + f * self.stack_.frame_pixels() + y * width;
  const long* columns = self.columns_.data();

  // The k rows under the window, reflected, and every column sorted. A
  // row of `sorted` is `stride` long, column j of it is column j - r of
  // the frame: a whole block of lanes can be read past the last pixel,
  // so that every block has the same trip count.
  // Every row of `sorted` starts its frame columns (index r) on a 64-byte
  // line, so that storing a vector of sorted columns never straddles two.
  constexpr long per_line = 64 / long(sizeof(T));
  const long stride = (span + lanes + per_line - 1) / per_line * per_line;
  scratch.columns.resize(std::size_t(k * stride + 2 * per_line));
  const auto first = reinterpret_cast<std::uintptr_t>(scratch.columns.data() + r);
  T* sorted = scratch.columns.data() + long((64 - first % 64) % 64 / sizeof(T));
  const T* rows[15];  // k <= 15
  for (long i = 0; i < k; ++i) rows[i] = frame + reflect(y - r + i, height) * width;
  if (k == 3) return widest_fixed_rows<3>(self, rows, sorted, stride, frame, y, result);
  if (k == 5) return widest_fixed_rows<5>(self, rows, sorted, stride, frame, y, result);
  if (k == 7) return widest_fixed_rows<7>(self, rows, sorted, stride, frame, y, result);
  for (long i = 0; i < k; ++i) {
    T* to = sorted + i * stride;
    for (long j = 0; j < r; ++j) to[j] = rows[i][columns[j]], to[r + width + j] = rows[i][columns[r + width + j]];
    std::copy(rows[i], rows[i] + width, to + r);
    std::fill(to + span, to + stride, T{});
  }
  for (const CompareExchange& step : self.networks_.column)
    compare_exchange(sorted + step.low * stride, sorted + step.high * stride, stride, true, true);

  // A block of pixels at a time: the window of pixel x0 + l is columns
  // x0 + l .. x0 + l + k - 1 of `sorted`; value c·k + i of the network is
  // row i of column c.
  scratch.window.resize(std::size_t(k * k * lanes));
  T* window = scratch.window.data();
  const T* pixels = frame + y * width;
  for (long x0 = 0; x0 < width; x0 += lanes) {
    const long count = std::min(lanes, width - x0);
    for (long c = 0; c < k; ++c)
      for (long i = 0; i < k; ++i) std::copy_n(sorted + i * stride + x0 + c, lanes, window + (c * k + i) * lanes);
    for (const CompareExchange& step : self.networks_.median)
      compare_exchange(window + step.low * lanes, window + step.high * lanes, lanes, step.keep_min, step.keep_max);
    const T* median = window + (k * k / 2) * lanes;
    if (!self.settings_.remove_outlier) {
      for (long l = 0; l < count; ++l) result[x0 + l] = median[l];
    } else {
      for (long l = 0; l < count; ++l) result[x0 + l] = choose(pixels[x0 + l], median[l], self.settings_);
    }
  }
}

// The filter is compiled once, for its three pixel types, in serial.cpp:
// its fixed networks for k = 3, 5 and 7, written out for three vector
// widths, took half a minute of compiling each file that used them.
// openmp.cpp and mpi.cpp call serial.cpp's copy.
extern template class SelectionNetworkFilter<float>;
extern template class SelectionNetworkFilter<double>;
extern template class SelectionNetworkFilter<std::uint16_t>;

}  // namespace ladder::median_filter
