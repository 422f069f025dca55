"""median_filter, python_numba: the serial rung's pruned selection network, compiled by Numba.

As selection_network.hpp's general path: for each output row, every column
of k reflected values sorted once (a sorting network) and shared by the k
windows that hold it; then the pruned median network of median_networks.hpp
(built in Python in prepare(), below: 6 + 12 min/max a pixel at k = 3),
each min or max step across a block of pixels at once, with no branch. The
C++ rung's networks fixed in registers (k = 3, 5, 7) have no Numba twin.
"""
import itertools

import numpy as np
from numba import njit

from python_numpy import reflected, settings

REQUIRES = ("numba",)

# Pixels filtered at once: each of the k² values of the window is a row of LANES. The C++ rung takes 64,
# so that the window stays in the L1 cache; here each step of the network is a compiled loop with a
# fixed cost of its own (set-up, alias checks), which 64 lanes do not amortise: on the workshop stack
# 1024 lanes ran 1.9x faster than 64 at k = 3 and 3.6x at k = 7, and still 4.4x at k = 15, where
# the window (900 KB of float32) lives in L2.
LANES = 1024


# The networks (median_networks.hpp, line for line). A step is (low, high,
# keep_min, keep_max): after it v[low] = min(v[low], v[high]) and v[high] =
# the max; a pruned step keeps only the side that is used later. Value
# c·k + i of a window is row i of its sorted column c.

def sorting_network(n):
    """Batcher's odd-even merge sort for the next power of two above n, the
    steps that touch an index past n left out (they would never exchange)."""
    p2 = 1
    while p2 < n:
        p2 *= 2
    network = []
    p = 1
    while p < p2:
        k = p
        while k >= 1:
            for j in range(k % p, p2 - k, 2 * k):
                for i in range(min(k, p2 - j - k)):
                    if (i + j) // (2 * p) == (i + j + k) // (2 * p) and i + j + k < n:
                        network.append((i + j, i + j + k, True, True))
            k //= 2
        p *= 2
    return network


def drop_idle_for_sorted_rows_and_columns(network, k, columns):
    """Drops every step that never exchanges when the window has sorted
    columns and sorted rows. A 0-1 window like that is a staircase (column
    c has z_c zeros on top, z_0 >= z_1 >= ...); all of them are tried at
    once, one bit of a Python integer each (min is AND, max is OR). By the
    0-1 principle a step idle on all of them is idle on every such window."""
    staircases = np.array([z[::-1] for z in itertools.combinations_with_replacement(range(k + 1), columns)])
    bits = []
    for c in range(columns):
        for i in range(k):
            ones = staircases[:, c] <= i  # row i of column c is 1 below the column's zeros
            bits.append(int.from_bytes(np.packbits(ones, bitorder="little").tobytes(), "little"))
    kept = []
    for step in network:
        low, high = bits[step[0]], bits[step[1]]
        if low & ~high:  # a 1 above a 0 somewhere: this step exchanges
            kept.append(step)
        bits[step[0]], bits[step[1]] = low & high, low | high
    return kept


def prune_to(network, n, wanted):
    """Keeps only what the values at `wanted` depend on, walking backwards."""
    used = [False] * n
    for w in wanted:
        used[w] = True
    kept = []
    for low, high, _, _ in reversed(network):
        if used[low] or used[high]:
            kept.append((low, high, used[low], used[high]))
            used[low] = used[high] = True
    return kept[::-1]


def operations(network):
    return sum(int(keep_min) + int(keep_max) for _, _, keep_min, keep_max in network)


def bubble_network(n, upwards):
    """Bubble sort as a network: pruned to the largest (or smallest) alone it is one pass."""
    network = []
    for done in range(n - 1):
        for j in range(n - 1 - done):
            low = j if upwards else n - 2 - j
            network.append((low, low + 1, True, True))
    return network


def rank_selection_network(k, columns, lo, hi, land_at=-1):
    """Ranks lo..hi of `columns` sorted columns of k values: each row sorted
    too (as far as its candidates need), then a network over the values that
    can still have those ranks, pruned. Returns it and where the ranks end."""
    n = k * columns
    candidates, below = [], 0
    for c in range(columns):
        for i in range(k):
            at_least_below, highest_rank = (i + 1) * (c + 1) - 1, n - (k - i) * (columns - c)
            if highest_rank < lo:
                below += 1
            elif at_least_below <= hi:
                candidates.append(c * k + i)
    if land_at >= 0:  # put land_at where rank lo ends
        at = candidates.index(land_at)
        candidates[at], candidates[lo - below] = candidates[lo - below], candidates[at]
    network = []
    for i in range(k):  # the row sorts
        wanted = [c for c in range(columns) if c * k + i in candidates]
        row = sorting_network(columns)
        for upwards in (True, False):
            bubble = bubble_network(columns, upwards)
            if operations(prune_to(bubble, columns, wanted)) < operations(prune_to(row, columns, wanted)):
                row = bubble
        network += [(low * k + i, high * k + i, True, True) for low, high, _, _ in row]
    among = [(candidates[low], candidates[high], True, True) for low, high, _, _ in sorting_network(len(candidates))]
    if k <= 9:  # past 9 the staircases to try grow past 10^6
        among = drop_idle_for_sorted_rows_and_columns(among, k, columns)
    positions = [candidates[rank - below] for rank in range(lo, hi + 1)]
    return prune_to(network + among, n, positions), positions


def median_network(k):
    """The median of k sorted columns of k values, ending at the middle index."""
    middle = k * k // 2
    return rank_selection_network(k, k, middle, middle, middle)[0]


def as_arrays(network):
    """A network as the four arrays the compiled filter reads."""
    steps = np.array(network, dtype=np.int64).reshape(-1, 4)
    return steps[:, 0].copy(), steps[:, 1].copy(), steps[:, 2].astype(np.bool_), steps[:, 3].astype(np.bool_)


# The filter, compiled.

@njit(cache=True)
def compare_exchange(low, high, keep_min, keep_max):
    """One step on all lanes at once: a vector min, a max, or both (written
    as std::min and std::max are, so that LLVM emits min and max instructions)."""
    if keep_min and keep_max:
        for l in range(low.shape[0]):
            a, b = low[l], high[l]
            low[l] = b if b < a else a
            high[l] = b if a < b else a
    elif keep_min:
        for l in range(low.shape[0]):
            a, b = low[l], high[l]
            low[l] = b if b < a else a
    else:
        for l in range(low.shape[0]):
            a, b = low[l], high[l]
            high[l] = b if a < b else a


@njit(cache=True)
def run_network(values, network):
    lows, highs, keep_mins, keep_maxs = network
    for s in range(lows.shape[0]):
        compare_exchange(values[lows[s]], values[highs[s]], keep_mins[s], keep_maxs[s])


@njit(cache=True)
def filter_row(frame, y, result, k, rows, columns, column_network, median_network, outlier, sorted_columns, window):
    """Row y of the frame's median into `result`. `rows` and `columns` are the
    reflected indices (position p reads index rows[p + r]); sorted_columns
    (k × at least W + k - 1 + LANES) and window (k² × LANES) are scratch."""
    remove_outlier, diff, bright = outlier
    r = k // 2
    height, width = frame.shape
    span = width + 2 * r
    # The k rows under the window, reflected, then every column sorted. Past
    # the span the rows are zero, so that every block reads LANES columns.
    for i in range(k):
        source, to = frame[rows[y + i]], sorted_columns[i]
        to[r:r + width] = source
        for j in range(r):  # the reflected borders
            to[j] = source[columns[j]]
            to[r + width + j] = source[columns[r + width + j]]
        to[span:] = 0
    run_network(sorted_columns, column_network)

    # A block of LANES pixels at a time: the window of pixel x0 + l is sorted
    # columns x0 + l .. x0 + l + k - 1; value c·k + i is row i of column c.
    middle = window[k * k // 2]
    for x0 in range(0, width, LANES):
        for c in range(k):
            for i in range(k):
                to, source = window[c * k + i], sorted_columns[i, x0 + c:x0 + c + LANES]
                for l in range(LANES):  # a loop, not a slice assignment: 15 % faster
                    to[l] = source[l]
        run_network(window, median_network)
        count = min(LANES, width - x0)
        if not remove_outlier:
            result[x0:x0 + count] = middle[:count]
            continue
        for l in range(count):
            pixel, median = frame[y, x0 + l], middle[l]
            # the difference in float64, so that uint16 cannot wrap
            difference = np.float64(pixel) - np.float64(median) if bright else np.float64(median) - np.float64(pixel)
            result[x0 + l] = median if difference > diff else pixel


@njit(cache=True)
def filter_stack(image, output, k, rows, columns, column_network, median_network, outlier, sorted_columns, window):
    for f in range(image.shape[0]):
        for y in range(image.shape[1]):
            filter_row(image[f], y, output[f, y], k, rows, columns, column_network, median_network, outlier,
                       sorted_columns, window)


def prepare_rung(rung, inputs, outputs, context, scratches):
    """What the serial and parallel rungs share: the stack as frames, the
    settings, the reflected indices, the networks, and `scratches` sets of
    working memory."""
    frame_shape = inputs["image"].shape[-2:]  # an H×W image is a stack of one frame
    rung.image = inputs["image"].reshape((-1,) + frame_shape)
    rung.output = outputs["output"].reshape((-1,) + frame_shape)
    k, remove_outlier, diff, bright = settings(context["params"])
    rung.k, rung.outlier = k, (remove_outlier, diff, bright)
    rung.rows, rung.columns = reflected(frame_shape[0], k // 2), reflected(frame_shape[1], k // 2)
    rung.column_network, rung.median_network = as_arrays(sorting_network(k)), as_arrays(median_network(k))
    stride = frame_shape[1] + k - 1 + LANES
    rung.sorted_columns = np.empty((scratches, k, stride), dtype=rung.image.dtype)
    rung.window = np.empty((scratches, k * k, LANES), dtype=rung.image.dtype)


class Rung:
    def prepare(self, inputs, outputs, context):
        prepare_rung(self, inputs, outputs, context, scratches=1)

    def compute(self):
        filter_stack(self.image, self.output, self.k, self.rows, self.columns, self.column_network,
                     self.median_network, self.outlier, self.sorted_columns[0], self.window[0])
