"""What every exercise's peers (solutions/<exercise>/peers.py) share: timers, library imports that
say why they failed, and the default check. reports/peers.py times them.

Each peer: (name, device, function(inputs, parameters) -> (timer, output)) where output() gives the
result as a NumPy array after one call. Inputs are NumPy arrays named as `ladder generate` writes them.
A peer whose result is not the reference array itself (primesieve's count) or is to be judged with a
tolerance returns (timer, output, compare) instead, compare(got, expected) -> (ok, detail), where
expected maps the reference's output names to arrays.
"""
import json
import math
import os
import statistics
import subprocess
import tempfile
import time

import numpy as np


def median_interval(samples):
    """Half the width of the median's 95 % interval, over the median: distribution-free, from the order
    statistics n/2 -+ 0.98 sqrt(n), as the harness computes it (bench/src/timing.cpp, summarise()). Only
    for the samples of several replicates pooled here; one replicate's statistics come from `ladder pace`."""
    ordered = sorted(samples)
    n = len(ordered)
    median = statistics.median(ordered)
    reach = 0.98 * math.sqrt(n)
    below = max(0, math.floor(n / 2 - reach))
    above = min(n - 1, math.ceil(n / 2 + reach))
    return (ordered[above] - ordered[below]) / (2 * median) if median > 0 else 0.0


def summarise(samples):
    """The statistics of replicates' samples pooled, as the harness pools its rungs' (merge_replicates)."""
    mean = statistics.fmean(samples)
    return {"median_s": statistics.median(samples), "min_s": min(samples), "max_s": max(samples), "mean_s": mean,
            "cv": statistics.pstdev(samples) / mean if mean > 0 else 0.0, "median_interval": median_interval(samples),
            "repetitions": len(samples), "samples_s": samples}


STATISTICS = ("median_s", "min_s", "max_s", "mean_s", "cv", "median_interval", "repetitions", "samples_s")


def measure(once, policy, ladder):
    """Times once() (which returns seconds) as the harness times a rung, by the harness itself: `ladder pace`
    runs its measure() under `policy` (a run's context.timing_policy) and asks for each sample, the pilot
    first, with a line `sample`, answered with once()'s seconds; it ends with `done {statistics}`. Returns
    those statistics (median_s, min_s, max_s, mean_s, cv, median_interval, repetitions, samples_s: the kept
    samples), so that the peers' figures are the harness's. RuntimeError naming `ladder pace` and what it
    printed where it fails or answers otherwise."""
    command = [ladder, "pace", "--policy", json.dumps(policy)]
    with tempfile.TemporaryFile("w+") as errors:
        def failure(what):
            child.kill()
            child.wait()
            try:
                child.stdin.close()  # what is left unsent goes nowhere
            except OSError:
                pass
            errors.seek(0)
            said = errors.read().strip()
            return RuntimeError(f"`ladder pace` ({ladder}) {what}" + (f"; it said: {said}" if said else ""))

        try:
            child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, text=True)
        except OSError as error:
            raise RuntimeError(f"`ladder pace` ({ladder}) could not start: {error}") from error
        with child:
            for line in child.stdout:
                if line == "sample\n":
                    try:
                        child.stdin.write(f"{float(once())!r}\n")
                        child.stdin.flush()
                    except BrokenPipeError:
                        raise failure("stopped while a sample was sent") from None
                    except BaseException:
                        child.kill()
                        raise
                    continue
                try:
                    done = json.loads(line[len("done "):]) if line.startswith("done ") else None
                except ValueError:
                    done = None
                if not isinstance(done, dict) or any(key not in done for key in STATISTICS):
                    raise failure(f"printed {line.strip()[:200]!r}, expected `sample` or `done {{statistics}}`")
                child.stdin.close()
                if child.wait() != 0:
                    raise failure(f"exited {child.returncode} after `done`")
                return {key: done[key] for key in STATISTICS}
            raise failure(f"exited {child.wait()} before `done`")


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


def cupy_peer(cupy, name, call, compare=None, dtype=None):
    """A peer on the GPU, as peers() yields it: call() (CuPy arrays already on the device) timed by CUDA
    events, and its result brought to the host for the check, as `dtype` where the reference's differs."""
    def result():
        got = cupy.asnumpy(call())
        return got if dtype is None else got.astype(dtype)
    return name, "gpu", lambda: (cupy_timer(cupy, call), result) + ((compare,) if compare else ())


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
