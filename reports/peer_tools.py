"""What every exercise's peers (solutions/<exercise>/peers.py) share: timers, library imports that
say why they failed, and the default check. reports/peers.py times them.

Each peer: (name, device, function(inputs, parameters) -> (timer, output)) where output() gives the
result as a NumPy array after one call. Inputs are NumPy arrays named as `ladder generate` writes them.
A peer whose result is not the reference array itself (primesieve's count) or is to be judged with a
tolerance returns (timer, output, compare) instead, compare(got, expected) -> (ok, detail), where
expected maps the reference's output names to arrays.
"""
import math
import os
import statistics
import time

import numpy as np


def median_interval(samples):
    """Half the width of the median's 95 % interval, over the median: distribution-free, from the order
    statistics n/2 -+ 0.98 sqrt(n), as the harness computes it (bench/src/harness.cpp, summarise())."""
    ordered = sorted(samples)
    n = len(ordered)
    median = statistics.median(ordered)
    reach = 0.98 * math.sqrt(n)
    below = max(0, math.floor(n / 2 - reach))
    above = min(n - 1, math.ceil(n / 2 + reach))
    return (ordered[above] - ordered[below]) / (2 * median) if median > 0 else 0.0


def summarise(samples):
    mean = statistics.fmean(samples)
    return {"median_s": statistics.median(samples), "min_s": min(samples), "max_s": max(samples), "mean_s": mean,
            "cv": statistics.pstdev(samples) / mean if mean > 0 else 0.0, "median_interval": median_interval(samples),
            "repetitions": len(samples), "samples_s": samples}


# The timing policy is the harness's: `ladder run` records it in the results (context.timing_policy), and
# the peers of that run are held to the same numbers. Batches beyond the first stop at this many, as in
# bench/include/ladder/harness.hpp (TimingPolicy::kMaxBatches), where a run does not record it.
MAX_BATCHES = 4


def measure(once, policy):
    """Samples of once() (which returns seconds) by the harness's rule (bench/src/harness.cpp, measure()): a
    pilot, not kept, sizes the first batch to min_time_s within [min_repetitions, max_repetitions] and to half
    the time budget (a rung's compute figure gets half: the other half is its transfer figure), at least 3;
    more batches while the median's 95 % interval is wider than noise_target, up to max_batches batches,
    max_repetitions samples or half the budget."""
    min_time, budget = policy["min_time_s"], policy["time_budget_s"] / 2
    least, most = policy["min_repetitions"], policy["max_repetitions"]
    pilot = max(once(), 1e-9)
    batch = min(max(math.ceil(min_time / pilot), least), most)
    batch = max(min(batch, int(budget / pilot)), min(3, least))
    samples, spent = [], 0.0
    for batches in range(1, policy.get("max_batches", MAX_BATCHES) + 1):
        new = [once() for _ in range(batch)]
        samples += new
        spent += sum(new)
        per_sample = spent / len(samples)
        if (median_interval(samples) <= policy["noise_target"] or len(samples) + batch > most
                or spent + per_sample * batch > budget):
            break
    return samples


def host_timer(function):
    def once():
        start = time.perf_counter()
        function()
        return time.perf_counter() - start
    return once


def cupy_timer(cupy, function):
    """CUDA events around function(), after writing a buffer twice the L2 size (evicts the cache)."""
    device = cupy.cuda.Device()
    l2 = device.attributes.get("L2CacheSize", 50 << 20)
    scrub = cupy.empty(2 * l2, dtype=cupy.uint8)
    start, stop = cupy.cuda.Event(), cupy.cuda.Event()

    def once():
        scrub.fill(0)
        start.record()
        function()
        stop.record()
        stop.synchronize()
        return cupy.cuda.get_elapsed_time(start, stop) * 1e-3
    return once


def import_cv2():
    try:
        import cv2
        return cv2, None
    except Exception as error:  # not installed
        return None, f"OpenCV unavailable ({type(error).__name__}): Debian python3-opencv, or pip opencv-python-headless"


def opencv_thread_counts():
    """OpenCV's peers run twice: on one thread, and on every core (the library's own default)."""
    return sorted({1, os.cpu_count() or 1})


def with_threads(cv2, threads, function):
    """function, run with OpenCV's thread pool set to `threads` (a global setting: set on every call)."""
    def run():
        cv2.setNumThreads(threads)
        return function()
    return run


def import_cupy():
    try:
        import cupy
        cupy.cuda.runtime.getDeviceCount()
        return cupy, None
    except Exception as error:  # not installed, or no GPU / driver
        return None, f"CuPy unavailable: {type(error).__name__}: {error}".splitlines()[0]


def compare_arrays(got, want):
    """The default check: the peer's array is the reference, bit for bit."""
    identical = got.shape == want.shape and got.dtype == want.dtype and np.array_equal(got, want)
    return identical, ("identical" if identical else
                       f"differs from the reference in {int(np.count_nonzero(got != want))} elements"
                       if got.shape == want.shape else f"shape {got.shape}, expected {want.shape}")
