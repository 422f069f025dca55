#pragma once
// The selection networks of the median filter, built at compile time (or
// once per k at run time): plain C++ with no dependence on the rest of the
// suite, so that the serial and openmp rungs (selection_network.hpp) and the
// cuda_network rung's kernel (kernels/median_filter/median_filter.cuh) use
// the same networks. A network is a list of compare-exchanges; value
// c·k + i of a window is row i of column c.
#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace ladder::median_filter {

// After it, v[low] = min(v[low], v[high]) and v[high] = the max; a pruned
// network keeps only the side that is used later.
struct CompareExchange {
  int low = 0, high = 0;
  bool keep_min = true, keep_max = true;
};

// Batcher's odd-even merge sort for the next power of two above n, with
// every compare-exchange that touches an index past n left out: those
// positions would hold +infinity, so it would never exchange.
constexpr std::vector<CompareExchange> sorting_network(int n) {
  int p2 = 1;
  while (p2 < n) p2 *= 2;
  std::vector<CompareExchange> network;
  for (int p = 1; p < p2; p *= 2)
    for (int k = p; k >= 1; k /= 2)
      for (int j = k % p; j + k < p2; j += 2 * k)
        for (int i = 0; i < std::min(k, p2 - j - k); ++i)
          if ((i + j) / (2 * p) == (i + j + k) / (2 * p) && i + j + k < n) network.push_back({i + j, i + j + k});
  return network;
}

// Drops every compare-exchange that never exchanges when the k² values
// (value c·k + i is row i of column c) have sorted columns and sorted
// rows. A 0-1 window like that is a staircase: column c has z_c zeros on
// top, with z_0 >= z_1 >= ... >= z_(k-1), so there are (2k choose k) of
// them (3432 for k = 7, 48620 for k = 9). 64 are tried at once, one per
// bit (min is AND, max is OR, an exchange is a 1 above a 0). By the 0-1
// principle a step idle on all of them is idle on every such window.
constexpr std::vector<CompareExchange> drop_idle_for_sorted_rows_and_columns(
    const std::vector<CompareExchange>& network, int k, int columns) {
  const int n = k * columns;
  std::vector<char> exchanges(network.size(), false);
  std::vector<std::uint64_t> bits(std::size_t(n), 0);
  std::vector<int> zeros(std::size_t(columns), k);  // the first staircase: all zeros
  int lane = 0;
  auto try_lanes = [&] {  // runs the network on the `lane` staircases set in `bits`
    for (std::size_t t = 0; t < network.size(); ++t) {
      std::uint64_t& low = bits[std::size_t(network[t].low)];
      std::uint64_t& high = bits[std::size_t(network[t].high)];
      if (low & ~high) exchanges[t] = true;
      const std::uint64_t smaller = low & high, larger = low | high;
      low = smaller, high = larger;
    }
    std::fill(bits.begin(), bits.end(), 0);
    lane = 0;
  };
  for (bool more = true; more;) {
    for (int c = 0; c < columns; ++c)
      for (int i = zeros[std::size_t(c)]; i < k; ++i) bits[std::size_t(c * k + i)] |= std::uint64_t(1) << lane;
    if (++lane == 64) try_lanes();
    // The next staircase, counting down from the last column: decrease the
    // rightmost column that can be, and raise every column after it back
    // to its new height.
    int c = columns - 1;
    while (c >= 0 && zeros[std::size_t(c)] == 0) --c;
    more = c >= 0;
    if (more) {
      --zeros[std::size_t(c)];
      for (int d = c + 1; d < columns; ++d) zeros[std::size_t(d)] = zeros[std::size_t(c)];
    }
  }
  if (lane > 0) try_lanes();
  std::vector<CompareExchange> kept;
  for (std::size_t t = 0; t < network.size(); ++t)
    if (exchanges[t]) kept.push_back(network[t]);
  return kept;
}

// Keeps only what the values at `wanted` depend on, walking backwards.
constexpr std::vector<CompareExchange> prune_to(const std::vector<CompareExchange>& network, int n,
                                                const std::vector<int>& wanted) {
  std::vector<char> used(std::size_t(n), false);
  for (int w : wanted) used[std::size_t(w)] = true;
  std::vector<CompareExchange> kept;
  for (auto step = network.rbegin(); step != network.rend(); ++step) {
    const bool min_used = used[std::size_t(step->low)], max_used = used[std::size_t(step->high)];
    if (!min_used && !max_used) continue;
    kept.push_back({step->low, step->high, min_used, max_used});
    used[std::size_t(step->low)] = used[std::size_t(step->high)] = true;
  }
  std::reverse(kept.begin(), kept.end());
  return kept;
}

// Min and max operations left in a pruned network.
constexpr int operations(const std::vector<CompareExchange>& network) {
  int count = 0;
  for (const CompareExchange& step : network) count += int(step.keep_min) + int(step.keep_max);
  return count;
}

// Bubble sort as a network: each pass carries the largest value up
// (`upwards`) or the smallest down. Pruned to the largest (or smallest)
// alone it is one pass, k - 1 steps, where Batcher's needs more.
constexpr std::vector<CompareExchange> bubble_network(int n, bool upwards) {
  std::vector<CompareExchange> network;
  for (int pass = 0; pass + 1 < n; ++pass)
    for (int j = 0; j + 1 < n - pass; ++j) {
      const int low = upwards ? j : n - 2 - j;
      network.push_back({low, low + 1});
    }
  return network;
}

// Ranks lo..hi of `columns` sorted columns of k values (value c·k + i is
// row i of column c), in three steps:
// 1. Each row is sorted across the columns; the columns stay sorted (a
//    classic lemma). Then the value at (row i, column c) has at least
//    (i+1)(c+1) - 1 values at or below it and (k-i)(columns-c) - 1 at or
//    above.
// 2. So only some values can have a wanted rank (for the median of k
//    columns: 3 of 9 at k = 3, 13 of 25 at k = 5); `below` others are
//    certainly under them, and rank r is the candidates' (r - below)-th
//    smallest: a sorting network over the candidates, pruned to those
//    ranks. A row is sorted only as far as its candidates need, by the
//    cheapest of Batcher's network and the two bubble sorts (a row whose
//    only candidate is its largest: one pass).
// 3. For k <= 9 every step of the candidates' network that never
//    exchanges when rows and columns are sorted is dropped (past 9 the
//    staircases to try grow past 10^6). Then everything the wanted ranks
//    do not need.
// `positions` says where rank lo, lo + 1, ... hi end. land_at, a value that
// is a candidate, is put where rank lo lands (the median network puts the
// median at the centre's index that way).
struct RankSelection {
  std::vector<CompareExchange> network;
  std::vector<int> positions;
};
constexpr RankSelection rank_selection_network(int k, int columns, int lo, int hi, int land_at = -1) {
  const int n = k * columns;
  std::vector<int> candidates;
  int below = 0;
  for (int c = 0; c < columns; ++c)
    for (int i = 0; i < k; ++i) {
      const int at_least_below = (i + 1) * (c + 1) - 1, highest_rank = n - (k - i) * (columns - c);
      if (highest_rank < lo) {
        ++below;
      } else if (at_least_below <= hi) {
        candidates.push_back(c * k + i);
      }
    }
  if (land_at >= 0)
    std::swap(*std::find(candidates.begin(), candidates.end(), land_at), candidates[std::size_t(lo - below)]);

  std::vector<CompareExchange> network;  // the row sorts, then the candidates' network
  for (int i = 0; i < k; ++i) {
    std::vector<int> wanted;  // the row's candidates, by column
    for (int c = 0; c < columns; ++c)
      if (std::find(candidates.begin(), candidates.end(), c * k + i) != candidates.end()) wanted.push_back(c);
    std::vector<CompareExchange> row = sorting_network(columns);
    for (bool upwards : {true, false}) {
      const std::vector<CompareExchange> bubble = bubble_network(columns, upwards);
      if (operations(prune_to(bubble, columns, wanted)) < operations(prune_to(row, columns, wanted))) row = bubble;
    }
    for (const CompareExchange& step : row) network.push_back({step.low * k + i, step.high * k + i});
  }
  std::vector<CompareExchange> among_candidates;
  for (const CompareExchange& step : sorting_network(int(candidates.size())))
    among_candidates.push_back({candidates[std::size_t(step.low)], candidates[std::size_t(step.high)]});
  if (k <= 9) among_candidates = drop_idle_for_sorted_rows_and_columns(among_candidates, k, columns);
  network.insert(network.end(), among_candidates.begin(), among_candidates.end());
  std::vector<int> positions;
  for (int rank = lo; rank <= hi; ++rank) positions.push_back(candidates[std::size_t(rank - below)]);
  return {prune_to(network, n, positions), positions};
}

// The median of k sorted columns of k values, ending at the middle index
// (the centre is always a candidate). Per pixel that leaves 12 min/max at
// k = 3 (Batcher's network pruned the same way without steps 1 and 2: 26;
// OpenCV's network: 38), 110 at k = 5 (146), 362 at k = 7 (450).
constexpr std::vector<CompareExchange> median_network(int k) {
  const int middle = k * k / 2;
  return rank_selection_network(k, k, middle, middle, middle).network;
}

// Two windows side by side share k - 1 of their k sorted columns. Of those
// k(k - 1) shared values, the median of either window can only be one of
// ranks k²/2 - k ... k²/2: each window adds k values of its own, so at
// most k of them lie below its median. Those k + 1 ranks are sorted once
// for both windows (rank_selection_network over the k - 1 shared columns);
// then each window's median is the (k + 1)-th smallest of them and its own
// sorted column, which is the smallest of max(M_j, E_(k+1-j)), j = 1 ..
// k + 1 (1-based; E_0 is below everything): a split of the k + 1 smallest
// into j of M and k + 1 - j of E has its largest at or above the (k+1)-th
// smallest, and the true split is equal to it. That is 2k min and max.
//
// pair_median_network(k) is the whole of it as one network over k + 1
// sorted columns (value c·k + i is row i of column c): the left window is
// columns 0 .. k-1, the right one 1 .. k; their medians end at
// pair_median_positions(k). Per window, at k = 7: 175 + 14 min/max where
// median_network takes 362; at k = 5, 51 + 10 where it takes 110.
constexpr std::array<int, 2> pair_median_positions(int k) { return {k - 1, k * k + k - 1}; }
constexpr std::vector<CompareExchange> pair_median_network(int k) {
  const int middle = k * k / 2;
  const RankSelection shared = rank_selection_network(k, k - 1, middle - k, middle);
  std::vector<CompareExchange> network;
  for (const CompareExchange& step : shared.network)  // shared column c is column c + 1 of the pair
    network.push_back({step.low + k, step.high + k, step.keep_min, step.keep_max});
  for (const int own_column : {0, k}) {
    const int own = own_column * k, result = own + k - 1;  // E_j is own + j - 1; the median ends on E_k
    for (int j = 1; j <= k; ++j)  // E_(k+1-j) = max(M_j, E_(k+1-j))
      network.push_back({shared.positions[std::size_t(j - 1)] + k, own + k - j, false, true});
    for (int j = 2; j <= k; ++j)  // the smallest of them, gathered on E_k (from j = 1)
      network.push_back({result, own + k - j, true, false});
    network.push_back({result, shared.positions[std::size_t(k)] + k, true, false});  // and M_(k+1)
  }
  return network;
}

// Batcher's odd-even merge of two sorted lists of positions, of any
// lengths: the even-indexed and the odd-indexed elements are merged apart
// (recursively), then each odd result is compared with the even one after
// it. Appends its steps to `network`; returns the merged list's positions,
// smallest first.
constexpr std::vector<int> merge_network(const std::vector<int>& a, const std::vector<int>& b,
                                         std::vector<CompareExchange>& network) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  if (a.size() == 1 && b.size() == 1) {
    network.push_back({a[0], b[0]});
    return {a[0], b[0]};
  }
  std::vector<int> a_even, a_odd, b_even, b_odd;
  for (std::size_t i = 0; i < a.size(); ++i) (i % 2 ? a_odd : a_even).push_back(a[i]);
  for (std::size_t i = 0; i < b.size(); ++i) (i % 2 ? b_odd : b_even).push_back(b[i]);
  const std::vector<int> even = merge_network(a_even, b_even, network);
  const std::vector<int> odd = merge_network(a_odd, b_odd, network);
  std::vector<int> merged{even[0]};
  std::size_t e = 1, o = 0;
  for (; o < odd.size() && e < even.size(); ++o, ++e) {
    network.push_back({odd[o], even[e]});
    merged.push_back(odd[o]), merged.push_back(even[e]);
  }
  merged.insert(merged.end(), odd.begin() + std::ptrdiff_t(o), odd.end());
  merged.insert(merged.end(), even.begin() + std::ptrdiff_t(e), even.end());
  return merged;
}

// Sorted columns first .. first + count - 1 of k values (value c·k + i is
// row i of column c) merged into one sorted list: the two halves merged
// apart (recursively), then with each other.
constexpr std::vector<int> merge_columns(int k, int first, int count, std::vector<CompareExchange>& network) {
  if (count == 1) {
    std::vector<int> column;
    for (int i = 0; i < k; ++i) column.push_back(first * k + i);
    return column;
  }
  const std::vector<int> left = merge_columns(k, first, count / 2, network);
  const std::vector<int> right = merge_columns(k, first + count / 2, count - count / 2, network);
  return merge_network(left, right, network);
}

// Four windows side by side (k = 7: window w is sorted columns w .. w+6 of
// ten) share k - 3 columns, and each pair of them k - 1. The median of a
// window is rank k²/2 of its k² values; it adds 3k values of its own to
// the four's shared ones, so only the shared ranks k²/2 - 3k .. k²/2 can
// become it, and k to the pair's (ranks k²/2 - k .. k²/2, as in
// pair_median_network). So, in three steps, each done once for all the
// windows that share it:
// 1. `shared`: the four's shared columns merged (pairs of columns, then the
//    two pairs: Batcher's odd-even merge), pruned to ranks k²/2 - 3k ..
//    k²/2. Over k - 3 columns of k values (value c·k + i: row i of the
//    group's column c + 3); the ranks end at shared_positions.
// 2. `pair`, for each pair: those ranks merged with the pair's two more
//    shared columns, pruned to ranks k²/2 - k .. k²/2 (the k - 3 values
//    of the first step below them stay below);
// 3. then each window's own column merged in, as pair_median_network's
//    last step (2k min and max).
// `pair` is over one pair's values laid out as the step-1 ranks, the two
// shared columns, the left window's own column, the right one's; the two
// medians end at pair_medians. Per output at k = 7: 184 / 4 + 142 / 2 = 117
// min/max, where pair_median_network takes 189. Only for k >= 7 (at k = 5
// the four share two columns, fewer values than the ranks step 1 keeps).
struct QuadNetworks {
  std::vector<CompareExchange> shared, pair;
  std::vector<int> shared_positions;
  std::array<int, 2> pair_medians{};
};
constexpr QuadNetworks quad_median_networks(int k) {
  const int middle = k * k / 2, below = middle - 3 * k;  // below: shared values under every rank kept
  QuadNetworks result;
  const std::vector<int> sorted = merge_columns(k, 0, k - 3, result.shared);
  result.shared_positions.assign(sorted.begin() + below, sorted.begin() + middle + 1);
  result.shared = prune_to(result.shared, k * (k - 3), result.shared_positions);

  const int ranks = int(result.shared_positions.size()), n = ranks + 4 * k;
  std::vector<int> shared_ranks, column_a, column_b;
  for (int r = 0; r < ranks; ++r) shared_ranks.push_back(r);
  for (int i = 0; i < k; ++i) column_a.push_back(ranks + i), column_b.push_back(ranks + k + i);
  const std::vector<int> both_columns = merge_network(column_a, column_b, result.pair);
  const std::vector<int> merged = merge_network(shared_ranks, both_columns, result.pair);
  // The pair's rank r is merged[r - below]: the `below` values of step 1 lie
  // under it, the ones over rank k²/2 over it.
  const std::vector<int> pair_ranks(merged.begin() + (middle - k - below), merged.begin() + (middle + 1 - below));
  result.pair = prune_to(result.pair, n, pair_ranks);
  for (int window = 0; window < 2; ++window) {
    const int own = ranks + (2 + window) * k, last = own + k - 1;  // E_j is own + j - 1; the median ends on E_k
    for (int j = 1; j <= k; ++j)  // E_(k+1-j) = max(M_j, E_(k+1-j))
      result.pair.push_back({pair_ranks[std::size_t(j - 1)], own + k - j, false, true});
    for (int j = 2; j <= k; ++j)  // the smallest of them, gathered on E_k
      result.pair.push_back({last, own + k - j, true, false});
    result.pair.push_back({last, pair_ranks[std::size_t(k)], true, false});  // and M_(k+1)
    result.pair_medians[std::size_t(window)] = last;
  }
  return result;
}

// The same network as a constant of the program, for the windows small
// enough that its values stay in registers, or nearly (on the CPU k = 3,
// 5 and 7; on the GPU 5 and 7): the compiler then sees every step and
// keeps the k² values in registers from the first step to the last.
constexpr std::vector<CompareExchange> network_of(int k, bool median) {
  if (median) return median_network(k);
  return sorting_network(k);
}
// A list made at compile time, as a std::array of its size (known there),
// so that it can be a template argument.
template <std::size_t N, class T>
constexpr std::array<T, N> to_array(const std::vector<T>& list) {
  std::array<T, N> fixed{};
  std::copy(list.begin(), list.end(), fixed.begin());
  return fixed;
}
template <int K>
constexpr auto fixed_pair_median_network() {
  return to_array<pair_median_network(K).size()>(pair_median_network(K));
}
template <int K>
constexpr auto fixed_quad_shared_network() {
  return to_array<quad_median_networks(K).shared.size()>(quad_median_networks(K).shared);
}
template <int K>
constexpr auto fixed_quad_pair_network() {
  return to_array<quad_median_networks(K).pair.size()>(quad_median_networks(K).pair);
}
template <int K>
constexpr auto fixed_quad_shared_positions() {
  return to_array<quad_median_networks(K).shared_positions.size()>(quad_median_networks(K).shared_positions);
}
template <int K, bool median>
constexpr auto fixed_network() {
  return to_array<network_of(K, median).size()>(network_of(K, median));
}

}  // namespace ladder::median_filter
