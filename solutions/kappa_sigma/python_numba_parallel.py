"""kappa_sigma, python_numba_parallel: the openmp rung's chunks and radix select, in Numba.

As solutions/kappa_sigma/openmp.cpp. Each thread owns a chunk of the work
buffer and compacts it in place (so no thread writes into another's chunk
and no scan is needed), histogramming the top 11 bits of each survivor's
order-preserving key as it goes. A quickselect cannot be split between
threads; a radix select can: the added histograms name the middle values'
bucket, one parallel pass gathers the values of that bucket and counts
their next 11 bits, the last 10 bits are counted among those candidates
only. Per-thread sums are added in thread order: the same bits every run.
"""
import numba
import numpy as np
from numba import njit, prange

from python_numba import write_statistics  # the serial rung's

REQUIRES = ("numba",)

BUCKETS = 2048  # a histogram of the widest digit (11 bits)


@njit(cache=True)
def float_key(bits):
    """A float's bits as an unsigned key in the floats' order: flip the sign
    bit of positives, every bit of negatives."""
    return bits ^ (0xFFFFFFFF if bits >> 31 else 0x80000000)


@njit(cache=True)
def key_float(key):
    bits = np.empty(1, dtype=np.uint32)
    bits[0] = key ^ (0x80000000 if key >> 31 else 0xFFFFFFFF)
    return bits.view(np.float32)[0]


@njit(cache=True, fastmath={"reassoc"})  # reassociation only: partial sums in vector lanes, as `omp simd reduction`
def shifted_sums(values, begin, count, shift):
    total, squares = 0.0, 0.0
    for i in range(begin, begin + count):
        d = values[i] - shift
        total += d
        squares += d * d
    return total, squares


@njit(cache=True)
def compact_chunk(source, source_bits, kept, begin, count, lower, upper, histogram):
    """Keeps the chunk's values strictly inside (lower, upper), packed at its
    start in `kept`, with the histogram of their top digit; returns how many."""
    histogram[:] = 0
    survivors = 0
    for i in range(begin, begin + count):
        x = source[i]
        if x > lower and x < upper:
            kept[begin + survivors] = x
            survivors += 1
            histogram[float_key(source_bits[i]) >> 21] += 1
    return survivors


@njit(cache=True)
def count_digit(values, begin, count, shift, digit_bits, prefix0, prefix1, histograms, gather, candidates):
    """Histograms the digit at `shift` of the chunk's values whose higher bits
    are a target's prefix: histograms[0] for the first target, [1] for the
    second (left empty while both share a prefix). With `gather`, the values
    counted are copied to the chunk's part of `candidates`; returns how many."""
    above, digit_mask = shift + digit_bits, (1 << digit_bits) - 1
    shared = prefix0 == prefix1
    histograms[:] = 0
    gathered = 0
    for i in range(begin, begin + count):
        key = float_key(values[i])
        prefix, bucket = key >> above, (key >> shift) & digit_mask
        first, second = prefix == prefix0, not shared and prefix == prefix1
        if first:
            histograms[0, bucket] += 1
        if second:
            histograms[1, bucket] += 1
        if gather and (first or second):
            candidates[begin + gathered] = values[i]
            gathered += 1
    return gathered


@njit(cache=True)
def select_digit(prefix, rank, histogram, digit_bits):
    """The bucket that rank falls in, appended to the prefix, and the rank within it."""
    below, bucket = 0, 0
    while below + histogram[bucket] <= rank:
        below += histogram[bucket]
        bucket += 1
    return (prefix << digit_bits) | bucket, rank - below


@njit(parallel=True, cache=True)
def clip(pixels, pixel_bits, kappa, threads, kept, kept_bits, candidates, mask, statistics):
    size = pixels.shape[0]
    begins = np.array([size * t // threads for t in range(threads + 1)])
    counts = begins[1:] - begins[:-1]  # each chunk's kept values, packed from begins[t]
    candidate_counts = np.zeros(threads, dtype=np.int64)
    top_digits = np.zeros((threads, BUCKETS), dtype=np.int64)
    digit_counts = np.zeros((threads, 2, BUCKETS), dtype=np.int64)
    sums, squares = np.zeros(threads), np.zeros(threads)

    lower, upper, shift = -np.inf, np.inf, np.float64(pixels[0])
    for t in prange(threads):  # the image copied in, as a compaction that keeps everything
        counts[t] = compact_chunk(pixels, pixel_bits, kept, begins[t], counts[t], lower, upper, top_digits[t])
        sums[t], squares[t] = shifted_sums(kept, begins[t], counts[t], shift)
    n = counts.sum()
    tightest_lower, tightest_upper = -np.inf, np.inf
    iterations = 0
    while True:
        iterations += 1
        total, total_squares = 0.0, 0.0
        for t in range(threads):  # in thread order
            total += sums[t]
            total_squares += squares[t]
        offset = total / n
        mean = shift + offset
        std = np.sqrt(max(0.0, total_squares / n - offset * offset))

        # The median: both middle values (ranks (n-1)/2 and n/2), a digit at a time.
        top = top_digits.sum(axis=0)
        prefix0, rank0 = select_digit(0, (n - 1) // 2, top, 11)
        prefix1, rank1 = select_digit(0, n // 2, top, 11)
        for digit in range(1, 3):
            shift_bits, digit_bits = (10, 11) if digit == 1 else (0, 10)
            gather = digit == 1  # the second digit reads the kept values, the third only the candidates
            for t in prange(threads):
                if gather:
                    candidate_counts[t] = count_digit(kept_bits, begins[t], counts[t], shift_bits, digit_bits,
                                                      prefix0, prefix1, digit_counts[t], True, candidates)
                else:
                    count_digit(candidates, begins[t], candidate_counts[t], shift_bits, digit_bits,
                                prefix0, prefix1, digit_counts[t], False, candidates)
            shared = prefix0 == prefix1
            added = digit_counts.sum(axis=0)
            prefix0, rank0 = select_digit(prefix0, rank0, added[0], digit_bits)
            prefix1, rank1 = select_digit(prefix1, rank1, added[0 if shared else 1], digit_bits)
        median = (np.float64(key_float(prefix0)) + np.float64(key_float(prefix1))) / 2

        lower, upper = median - kappa * std, median + kappa * std
        tightest_lower, tightest_upper = max(tightest_lower, lower), min(tightest_upper, upper)
        shift = median
        for t in prange(threads):  # each chunk compacted in place
            counts[t] = compact_chunk(kept, kept_bits, kept, begins[t], counts[t], lower, upper, top_digits[t])
            sums[t], squares[t] = shifted_sums(kept, begins[t], counts[t], shift)
        survivors = counts.sum()
        removed_nothing = survivors == n
        n = survivors
        if removed_nothing or n == 0:
            break
    for i in prange(size):
        mask[i] = pixels[i] > tightest_lower and pixels[i] < tightest_upper
    write_statistics(statistics, n, median, mean, std, iterations, lower, upper)


class Rung:
    def prepare(self, inputs, outputs, context):
        self.pixels = inputs["image"].reshape(-1)
        self.mask, self.statistics = outputs["mask"].reshape(-1), outputs["statistics"]
        self.kappa = float(context["params"].get("kappa", 3))
        # One chunk per thread: ladder's --threads where given (0: not given), else Numba's own count.
        self.threads = int(context["threads"]) or numba.get_num_threads()
        self.kept = np.empty(self.pixels.shape[0], dtype=np.float32)
        self.candidates = np.empty(self.pixels.shape[0], dtype=np.uint32)  # keys' bits, the middle buckets' values

    def compute(self):
        # The bits of the floats, viewed, not copied: the keys are made from them.
        clip(self.pixels, self.pixels.view(np.uint32), self.kappa, self.threads, self.kept,
             self.kept.view(np.uint32), self.candidates, self.mask, self.statistics)
