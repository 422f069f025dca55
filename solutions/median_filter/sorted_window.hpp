#pragma once
// The serial and openmp rungs' idea: walk along a row with a sorted k×k
// window. Moving one pixel right changes only one column of the window:
// each of its k values is replaced by the value one column further on,
// which slides to its sorted place (an insertion-sort step). The median is
// then the middle element, with no sort per pixel. Rows are independent,
// which is what the openmp rung shares out.
#include <algorithm>
#include <vector>

#include "bench/problems/median_filter.hpp"

namespace ladder::median_filter {

template <class T>
class SortedWindowFilter {
 public:
  SortedWindowFilter(const T* in, T* out, const Stack& stack, const Settings& settings)
      : in_(in), out_(out), stack_(stack), settings_(settings) {
    // The column each window position reads, reflected once for the whole
    // stack: the inner loops then never test a border.
    const long r = settings.radius(), width = long(stack.width);
    for (long j = -r; j < width + r; ++j) columns_.push_back(reflect(j, width));
  }

  // Filters row y of frame f; `window` is the caller's scratch (one per thread).
  void row(std::size_t f, long y, std::vector<T>& window) const {
    const long k = settings_.size, r = settings_.radius();
    const long height = long(stack_.height), width = long(stack_.width);
    const T* frame = in_ + f * stack_.frame_pixels();
    T* result = out_ + f * stack_.frame_pixels();
    const T* rows[15];  // k <= 15
    for (long i = 0; i < k; ++i) rows[i] = frame + reflect(y - r + i, height) * width;

    window.clear();
    for (long i = 0; i < k; ++i)
      for (long j = 0; j < k; ++j) window.push_back(rows[i][columns_[j]]);
    std::sort(window.begin(), window.end());
    const long middle = k * k / 2;
    for (long x = 0;; ++x) {
      result[y * width + x] = choose(frame[y * width + x], window[middle], settings_);
      if (x + 1 == width) break;
      // Column x leaves the window and column x + k enters it, row by row.
      for (long i = 0; i < k; ++i) replace(window, rows[i][columns_[x]], rows[i][columns_[x + k]]);
    }
  }

 private:
  // Replaces one copy of `gone` by `value` and slides it to its sorted place.
  static void replace(std::vector<T>& window, T gone, T value) {
    long at = std::lower_bound(window.begin(), window.end(), gone) - window.begin();
    const long last = long(window.size()) - 1;
    while (at < last && window[at + 1] < value) window[at] = window[at + 1], ++at;
    while (at > 0 && window[at - 1] > value) window[at] = window[at - 1], --at;
    window[at] = value;
  }

  const T* in_;
  T* out_;
  Stack stack_;
  Settings settings_;
  std::vector<long> columns_;
};

}  // namespace ladder::median_filter
