"""What every exercise's peers (solutions/<exercise>/peers.py) share: timers, library imports that
say why they failed, and the default check. reports/peers.py times them.

Each peer: (name, device, function(inputs, parameters) -> (timer, output)) where output() gives the
result as a NumPy array after one call. Inputs are NumPy arrays named as `ladder generate` writes them.
A peer whose result is not the reference array itself (primesieve's count) or is to be judged with a
tolerance returns (timer, output, compare) instead, compare(got, expected) -> (ok, detail), where
expected maps the reference's output names to arrays.
"""
import os
import statistics
import time

import numpy as np


def summarise(samples):
    mean = statistics.fmean(samples)
    return {"median_s": statistics.median(samples), "min_s": min(samples), "max_s": max(samples), "mean_s": mean,
            "cv": statistics.pstdev(samples) / mean if mean > 0 else 0.0, "repetitions": len(samples),
            "samples_s": samples}


def repeat(once, min_time, time_budget, minimum=10, maximum=1000):
    """Samples of once() (which returns seconds): enough for min_time, within [minimum, maximum], but no more
    than fit in time_budget seconds (at least one): a slow peer gets fewer repetitions, as a slow rung does in
    `ladder run --time-budget`."""
    pilot = max(once(), 1e-9)
    count = int(min(max(min_time / pilot, minimum), maximum, max(time_budget / pilot, 1)))
    return [once() for _ in range(count)]


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
