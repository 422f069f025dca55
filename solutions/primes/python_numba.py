"""primes, python_numba: the serial rung's segmented wheel sieve, compiled by Numba.

segmented_sieve.hpp, step for step: past 5 a prime is 30k + 1, 7, 11, 13,
17, 19, 23 or 29, so a byte holds the flags of 30 numbers, a bit each; a
32 KiB segment of such bytes stays in the L1 cache while it starts as a
copy of the patterns of 7 ... 47 and the larger primes <= sqrt(n) cross out
their multiples, 8 to a turn of the wheel; then its bits are written out as
flags, a 30-number row of a table per byte. The same algorithm as
`serial`, so the two rows compare the compilers, not the algorithms.
"""
import math

import numpy as np
from numba import njit

REQUIRES = ("numba",)

WHEEL = np.array([1, 7, 11, 13, 17, 19, 23, 29], dtype=np.int64)  # bit i of a byte is 30k + WHEEL[i]
SEGMENT_BYTES = 32 * 1024  # the L1 data cache of most CPUs
PRESIEVED = ((7, 11, 13), (17, 19, 23), (29, 31, 37), (41, 43, 47))  # a pattern per group
LARGEST_PRESIEVED = 47

WHEEL_BIT = np.full(30, -1, dtype=np.int64)  # residue mod 30 -> its bit (-1: not on the wheel)
WHEEL_BIT[WHEEL] = np.arange(8)

# A prime p = 30a + WHEEL[c] crosses p * m for m = 30q + WHEEL[i] on the wheel:
# byte p q + a WHEEL[i] + CARRY[c, i], bit CLEAR[c, i] cleared. One turn of the
# wheel (q to q + 1) moves p bytes on; the 8 crossings of a turn are fixed.
CARRY = (WHEEL[:, None] * WHEEL[None, :]) // 30
CLEAR = (~(1 << WHEEL_BIT[(WHEEL[:, None] * WHEEL[None, :]) % 30]) & 0xFF).astype(np.uint8)

# The 30 flags of a wheel byte's numbers, plus two zeros: 32 bytes a row.
FLAG_ROWS = np.zeros((256, 32), dtype=np.uint8)
for _bit in range(8):
    FLAG_ROWS[:, WHEEL[_bit]] = (np.arange(256) >> _bit) & 1


def presieve_patterns():
    """The patterns of PRESIEVED, one after the other in one array, each
    one period plus one segment long, so that any segment starts as one
    copy from its offset in each. Returns (bytes, starts, periods)."""
    patterns, starts, periods = [], [], []
    for group in PRESIEVED:
        period = group[0] * group[1] * group[2]
        pattern = np.full(period + SEGMENT_BYTES, 0xFF, dtype=np.uint8)
        for p in group:
            for byte in range(p):
                for bit in range(8):
                    if (30 * byte + WHEEL[bit]) % p == 0:
                        pattern[byte::p] &= np.uint8(~(1 << bit) & 0xFF)
        starts.append(sum(len(x) for x in patterns))
        patterns.append(pattern)
        periods.append(period)
    return np.concatenate(patterns), np.array(starts, dtype=np.int64), np.array(periods, dtype=np.int64)


@njit(cache=True)
def crossing_primes(n):
    """The primes 47 < p <= sqrt(n - 1), which cross out their multiples one
    by one: a small plain sieve, once a compute()."""
    root = int(math.sqrt(n))
    composite = np.zeros(root + 1, dtype=np.uint8)
    primes, count = np.empty(root + 1, dtype=np.int64), 0
    for p in range(2, root + 1):
        if composite[p]:
            continue
        # A slice, not a loop over range(p * p, root + 1, p): LLVM's loop
        # vectoriser makes that loop 5x slower (AVX-512 development VM).
        composite[p * p::p] = 1
        if p > LARGEST_PRESIEVED and p * p < n:
            primes[count], count = p, count + 1
    return primes[:count]


@njit(cache=True)
def sieving_primes(primes, low):
    """Where each prime stands for a sieve that starts at wheel byte `low`:
    its next crossing is at wheel step steps[k] of the turn that starts at
    byte turns[k] (relative to the segment; negative once the turn began in
    an earlier one). It first crosses p * m, m the smallest wheel number
    >= p and >= 30 low / p."""
    steps = np.empty(primes.shape[0], dtype=np.int64)
    turns = np.empty(primes.shape[0], dtype=np.int64)
    for k in range(primes.shape[0]):
        p = primes[k]
        m = max(p, (30 * low + p - 1) // p)
        q, step = m // 30, 0
        while step < 8 and 30 * q + WHEEL[step] < m:
            step += 1
        if step == 8:
            q, step = q + 1, 0
        steps[k], turns[k] = step, p * q - low
    return steps, turns


@njit(cache=True)
def cross_out(seg, length, primes, steps, turns):
    """Each prime's crossings in seg[0, length); where it stopped carries
    over to the next segment."""
    offset = np.empty(8, dtype=np.int64)
    mask = np.empty(8, dtype=np.uint8)
    for k in range(primes.shape[0]):
        p = primes[k]
        a, c = p // 30, WHEEL_BIT[p % 30]
        for i in range(8):
            offset[i], mask[i] = a * WHEEL[i] + CARRY[c, i], CLEAR[c, i]
        turn, step = turns[k], steps[k]
        # The rest of the current turn, up to the segment's end.
        while step < 8 and turn + offset[step] < length:
            seg[turn + offset[step]] &= mask[step]
            step += 1
        if step == 8:
            turn, step = turn + p, 0
            while turn + offset[7] < length:  # whole turns: 8 crossings each
                for i in range(8):
                    seg[turn + offset[i]] &= mask[i]
                turn += p
            while turn + offset[step] < length:  # the turn the segment ends in
                seg[turn + offset[step]] &= mask[step]
                step += 1
        turns[k], steps[k] = turn - length, step


@njit(cache=True)
def sieve_segment(low, length, primes, steps, turns, patterns, starts, periods, seg):
    """Sieves wheel bytes [low, low + length) into seg."""
    first = starts[0] + low % periods[0]
    seg[:length] = patterns[first:first + length]
    for g in range(1, starts.shape[0]):
        first = starts[g] + low % periods[g]
        # A view of its own, indexed from 0: `patterns[first + k]` would be
        # an index Numba must check for negative (Python's a[-1]), and the
        # check keeps LLVM from vectorising the loop (6x slower).
        pattern = patterns[first:first + length]
        for k in range(length):
            seg[k] &= pattern[k]  # vectorises
    cross_out(seg, length, primes, steps, turns)
    if low == 0:  # 1 is not prime, and the patterns crossed out 7 ... 47 themselves
        seg[0] &= 0xFE
        for group in PRESIEVED:
            for p in group:
                if p // 30 < length:
                    seg[p // 30] |= 1 << WHEEL_BIT[p % 30]


@njit(cache=True)
def write_flags(low, seg, length, flags):
    """The flags of the numbers 30 low ... 30 (low + length) - 1 below n.
    Each byte's row is copied whole, 32 bytes, and the next row overwrites
    its last two; the segment's last rows only as far as its own numbers,
    so that threads writing neighbouring segments never write the same flags."""
    out = 30 * low
    numbers = min(30 * length, flags.shape[0] - out)
    k = 0
    # Each row copied element by element into a view that starts at its
    # first flag: indices from 0 need no check for negative ones, so LLVM
    # copies the 32 bytes as one vector. (A slice assignment, flags[at:at +
    # 32] = row, goes through Numba's general array copy: 18x slower here.)
    while 30 * k + 32 <= numbers:
        row, to = FLAG_ROWS[seg[k]], flags[out + 30 * k:out + 30 * k + 32]
        for j in range(32):
            to[j] = row[j]
        k += 1
    while 30 * k < numbers:
        row, to = FLAG_ROWS[seg[k]], flags[out + 30 * k:out + min(30 * k + 30, numbers)]
        for j in range(to.shape[0]):
            to[j] = row[j]
        k += 1


@njit(cache=True)
def sieve_and_write_segment(low, primes, steps, turns, patterns, starts, periods, seg, flags):
    """One segment, the step both rungs take: sieves the wheel bytes from
    `low` (at most SEGMENT_BYTES, fewer at the end) and writes their flags."""
    length = min(SEGMENT_BYTES, (flags.shape[0] + 29) // 30 - low)
    sieve_segment(low, length, primes, steps, turns, patterns, starts, periods, seg)
    write_flags(low, seg, length, flags)


@njit(cache=True)
def set_flags_below_7(flags):
    for k in (2, 3, 5):
        if k < flags.shape[0]:
            flags[k] = 1


@njit(cache=True)
def primes_flags(flags, patterns, starts, periods):
    n = flags.shape[0]
    primes = crossing_primes(n)
    steps, turns = sieving_primes(primes, 0)
    seg = np.empty(SEGMENT_BYTES, dtype=np.uint8)
    # One segment after the other: the primes carry over from each to the next.
    for low in range(0, (n + 29) // 30, SEGMENT_BYTES):
        sieve_and_write_segment(low, primes, steps, turns, patterns, starts, periods, seg, flags)
    set_flags_below_7(flags)


class Rung:
    def prepare(self, inputs, outputs, context):
        self.flags = outputs["flags"]
        self.patterns, self.starts, self.periods = presieve_patterns()

    def compute(self):
        primes_flags(self.flags, self.patterns, self.starts, self.periods)
