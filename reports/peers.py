#!/usr/bin/env python3
"""Peers: what a participant would use instead of the suite, timed on the same inputs in the same run.

    python3 reports/peers.py RESULTS.json [--ladder PATH] [--min-time 0.2] [--time-budget S] [--replicates N]

For every exercise run in RESULTS.json that has peers below, the inputs are
regenerated with `ladder generate` (same size, parameters and seed, so the
same bytes), each peer is timed and its output checked against the
reference, and the rows are added to that run as `peers` (the results file
is rewritten in place). A peer whose library is not installed is recorded
as skipped, with the reason.

Host peers are timed with a steady clock, GPU peers (CuPy) with CUDA events
on data already on the device (compute-only), with the L2 cache evicted
before each repetition as the suite does. Each peer is repeated for at
least --min-time seconds and 10 times, but a slow one only as often as fits
in the run's time budget (`ladder run --time-budget`, 60 s by default), and
at least once: at the large size a one-core SciPy call can take seconds.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from ladder_results import fail, load_results

PROGRAM = "peers"


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


# Each peer: (name, device, function(inputs, parameters) -> (timer, output)) where output() gives the
# result as a NumPy array after one call. Inputs are NumPy arrays named as `ladder generate` writes them.
# A peer whose result is not the reference array itself (primesieve's count) or is to be judged with a
# tolerance returns (timer, output, compare) instead, compare(got, expected) -> (ok, detail), where
# expected maps the reference's output names to arrays.
def vector_add_peers(inputs, parameters):
    a, b = inputs["a"], inputs["b"]
    c = np.empty_like(a)
    yield "numpy np.add(a, b, out=c)", "cpu", lambda: (host_timer(lambda: np.add(a, b, out=c)), lambda: c)
    cupy, why = import_cupy()
    if cupy is None:
        yield "cupy a + b", "gpu", why
        return
    da, db = cupy.asarray(a), cupy.asarray(b)
    dc = cupy.empty_like(da)
    yield "cupy a + b", "gpu", lambda: (cupy_timer(cupy, lambda: cupy.add(da, db, out=dc)), lambda: cupy.asnumpy(dc))


def histogram_peers(inputs, parameters):
    values = inputs["values"].ravel()
    yield ("numpy np.bincount(values, minlength=256)", "cpu",
           lambda: (host_timer(lambda: np.bincount(values, minlength=256)),
                    lambda: np.bincount(values, minlength=256).astype(np.uint32)))
    cv2, why = import_cv2()
    if cv2 is None:
        yield "opencv cv2.calcHist", "cpu", why
    else:
        column = values.reshape(-1, 1)  # calcHist takes images: one column of N pixels
        for threads in opencv_thread_counts():
            histogram = with_threads(cv2, threads, lambda: cv2.calcHist([column], [0], None, [256], [0, 256]))
            yield (f"opencv cv2.calcHist ({threads} thread{'s' * (threads > 1)})", "cpu",
                   lambda histogram=histogram: (host_timer(histogram),
                                                lambda: histogram().ravel().astype(np.uint32)), threads)
    cupy, why = import_cupy()
    if cupy is None:
        yield "cupy.bincount", "gpu", why
        return
    dv = cupy.asarray(values)
    yield ("cupy.bincount(values, minlength=256)", "gpu",
           lambda: (cupy_timer(cupy, lambda: cupy.bincount(dv, minlength=256)),
                    lambda: cupy.asnumpy(cupy.bincount(dv, minlength=256)).astype(np.uint32)))


def polygon_mask_peers(inputs, parameters):
    try:
        from matplotlib.path import Path as PolygonPath
    except ImportError:
        yield "matplotlib Path.contains_points", "cpu", "matplotlib is not installed"
        return
    width, height = int(parameters["width"]), int(parameters["height"])
    path = PolygonPath(inputs["vertices"])
    ys, xs = np.mgrid[0:height, 0:width]
    points = np.column_stack([xs.ravel(), ys.ravel()]).astype(np.float64)
    yield ("matplotlib Path.contains_points", "cpu",
           lambda: (host_timer(lambda: path.contains_points(points)),
                    lambda: path.contains_points(points).reshape(height, width).astype(np.uint8)))


def primes_peers(inputs, parameters):
    """primesieve (Kim Walisch's segmented sieve) on one thread, through its C library (libprimesieve,
    which the Debian package primesieve installs), called with ctypes and timed here like the other
    Python peers, repeated until the time is measurable (its command-line tool's own --time has 1 ms
    resolution and reads 0 at n = 10^5). Two ways to use it:
    - counting the primes below n, its fastest operation, which is not the exercise's output (it is
      checked against the count of flags);
    - the route a user takes to the exercise's exact output: the primes below n as an array
      (primesieve_generate_primes), then a zeroed uint8 array of n flags set at those indices."""
    import ctypes
    import ctypes.util
    count_name = "primesieve_count_primes (libprimesieve, 1 thread)"  # the name earlier runs recorded
    flags_name = "primesieve_generate_primes, then flags[primes] = 1 (libprimesieve, 1 thread)"
    library = ctypes.util.find_library("primesieve")
    if library is None:
        for name in (count_name, flags_name):
            yield name, "cpu", "libprimesieve is not installed (Debian package primesieve)"
        return
    primesieve = ctypes.CDLL(library)
    primesieve.primesieve_count_primes.restype = ctypes.c_uint64
    primesieve.primesieve_count_primes.argtypes = [ctypes.c_uint64, ctypes.c_uint64]
    primesieve.primesieve_generate_primes.restype = ctypes.c_void_p
    primesieve.primesieve_generate_primes.argtypes = [ctypes.c_uint64, ctypes.c_uint64,
                                                       ctypes.POINTER(ctypes.c_size_t), ctypes.c_int]
    primesieve.primesieve_free.argtypes = [ctypes.c_void_p]
    primesieve.primesieve_set_num_threads.argtypes = [ctypes.c_int]
    primesieve.primesieve_set_num_threads(1)
    n = int(parameters["n"])
    stop = max(n - 1, 0)  # primesieve works on [0, STOP]

    def count():
        return primesieve.primesieve_count_primes(0, stop)

    def compare(counted, expected):
        want = int(np.count_nonzero(next(iter(expected.values()))))
        return counted == want, "identical count" if counted == want else f"counted {counted} primes, the flags hold {want}"
    yield count_name, "cpu", lambda: (host_timer(count), count, compare), 1

    uint64_primes = 13  # primesieve.h's enum: SHORT, USHORT, INT, UINT, LONG, ULONG, ..., INT64, UINT64

    def flags():
        size = ctypes.c_size_t()
        found = primesieve.primesieve_generate_primes(0, stop, ctypes.byref(size), uint64_primes)
        result = np.zeros(n, dtype=np.uint8)
        if size.value:
            primes = np.ctypeslib.as_array(ctypes.cast(found, ctypes.POINTER(ctypes.c_uint64)), shape=(size.value,))
            result[primes] = 1
        primesieve.primesieve_free(found)
        return result
    yield flags_name, "cpu", lambda: (host_timer(flags), flags), 1


def convolution_peers(inputs, parameters):
    """SciPy's direct and FFT convolutions (the lesson's), CuPy's direct one; float32 in, judged as the
    suite judges its rungs: relative L2 error against the float64 reference at most 1e-5."""
    image, kernel = inputs["image"], inputs["kernel"]

    def compare(got, expected):
        want = expected["output"].astype(np.float64)
        if got.shape != want.shape:
            return False, f"shape {got.shape}, expected {want.shape}"
        norm = np.linalg.norm(want)
        error = np.linalg.norm(got.astype(np.float64) - want) / norm if norm > 0 else np.linalg.norm(got)
        return bool(error <= 1e-5), f"relative L2 error {error:.3g}"
    try:
        import scipy.signal
    except ImportError:
        yield "scipy.signal.convolve2d", "cpu", "SciPy is not installed"
    else:
        if image.size * kernel.size > 1 << 32:  # 8192² ⊗ 15²: half a minute a call on one core
            yield ("scipy.signal.convolve2d(image, kernel)", "cpu",
                   f"{image.size} pixels ⊗ {kernel.size} weights: too slow on one core (run it at workshop)")
        else:
            yield ("scipy.signal.convolve2d(image, kernel)", "cpu",
                   lambda: (host_timer(lambda: scipy.signal.convolve2d(image, kernel)),
                            lambda: scipy.signal.convolve2d(image, kernel), compare))
        yield ("scipy.signal.fftconvolve(image, kernel)", "cpu",
               lambda: (host_timer(lambda: scipy.signal.fftconvolve(image, kernel)),
                        lambda: scipy.signal.fftconvolve(image, kernel), compare))
    cv2, why = import_cv2()
    if cv2 is None:
        yield "opencv cv2.filter2D", "cpu", why
    else:
        # filter2D correlates and keeps the image's size: the full convolution is the correlation with the
        # flipped kernel over the image padded with K - 1 zeros on every side, cropped to (H+K-1)x(W+K-1).
        kh, kw = kernel.shape
        flipped = np.ascontiguousarray(kernel[::-1, ::-1])
        anchor_y, anchor_x = kh // 2, kw // 2

        def full_convolution():
            padded = cv2.copyMakeBorder(image, kh - 1, kh - 1, kw - 1, kw - 1, cv2.BORDER_CONSTANT, value=0)
            out = cv2.filter2D(padded, -1, flipped, borderType=cv2.BORDER_CONSTANT)
            return out[anchor_y:anchor_y + image.shape[0] + kh - 1, anchor_x:anchor_x + image.shape[1] + kw - 1]
        for threads in opencv_thread_counts():
            run = with_threads(cv2, threads, full_convolution)
            yield (f"opencv cv2.filter2D on the zero-padded image ({threads} thread{'s' * (threads > 1)})", "cpu",
                   lambda run=run: (host_timer(run), run, compare), threads)
    cupy, why = import_cupy()
    if cupy is None:
        yield "cupyx.scipy.signal.convolve2d", "gpu", why
        return
    import cupyx.scipy.signal
    di, dk = cupy.asarray(image), cupy.asarray(kernel)
    yield ("cupyx.scipy.signal.convolve2d(image, kernel)", "gpu",
           lambda: (cupy_timer(cupy, lambda: cupyx.scipy.signal.convolve2d(di, dk)),
                    lambda: cupy.asnumpy(cupyx.scipy.signal.convolve2d(di, dk)), compare))


def lesson_kappa_sigma(xp, data, kappa):
    """The GPU lesson's loop, as written there (xp: numpy or cupy)."""
    data_flat = data.ravel()
    while True:
        med = xp.median(data_flat)
        std = xp.std(data_flat)
        clipped_lower = data_flat.compress(data_flat > med - kappa * std)
        clipped_both = clipped_lower.compress(clipped_lower < med + kappa * std)
        if len(clipped_both) == len(data_flat):
            break
        data_flat = clipped_both
    return data_flat


def kappa_sigma_peers(inputs, parameters):
    """The lesson's NumPy loop and the same on CuPy. They return the kept values, not a mask: judged by
    their count (within 1e-6 N of the reference's) and the std of what they kept (1e-5 relative: NumPy's
    std sums in float32)."""
    image, kappa = inputs["image"], float(parameters.get("kappa", 3))

    def compare(kept, expected):
        statistics_ = expected["statistics"]
        count, std = int(statistics_[0]), float(statistics_[3])
        kept = np.asarray(kept, dtype=np.float64)
        count_ok = abs(kept.size - count) <= max(1.0, 1e-6 * image.size)
        std_ok = kept.size > 0 and abs(kept.std() - std) <= 1e-5 * abs(std)
        return bool(count_ok and std_ok), f"kept {kept.size} (reference {count}), std {kept.std():.9g} (reference {std:.9g})"
    yield ("numpy: the lesson's loop", "cpu",
           lambda: (host_timer(lambda: lesson_kappa_sigma(np, image, kappa)),
                    lambda: lesson_kappa_sigma(np, image, kappa), compare))
    try:
        from astropy.stats import sigma_clip
    except Exception as error:
        yield "astropy.stats.sigma_clip", "cpu", f"astropy unavailable ({type(error).__name__}): Debian python3-astropy"
    else:
        # Median centre, population std, to convergence; it keeps values ON a bound too (the lesson's loop
        # does not), so its count may differ by those values: the check says by how many.
        clip = lambda: sigma_clip(image, sigma=kappa, maxiters=None, cenfunc="median", stdfunc="std",
                                  masked=True, copy=False)
        yield ("astropy.stats.sigma_clip (inclusive bounds)", "cpu",
               lambda: (host_timer(clip), lambda: clip().compressed(), compare))
    cupy, why = import_cupy()
    if cupy is None:
        yield "cupy: the lesson's loop", "gpu", why
        return
    di = cupy.asarray(image)
    yield ("cupy: the lesson's loop", "gpu",
           lambda: (cupy_timer(cupy, lambda: lesson_kappa_sigma(cupy, di, kappa)),
                    lambda: cupy.asnumpy(lesson_kappa_sigma(cupy, di, kappa)), compare))


def labelling_peers(inputs, parameters):
    """scipy.ndimage.label and cupyx.scipy.ndimage.label: the same labels exactly (int32)."""
    image = inputs["image"]
    structure = np.ones((3, 3), dtype=bool) if parameters.get("connectivity", "4") == "8" else None
    try:
        import scipy.ndimage
    except ImportError:
        yield "scipy.ndimage.label", "cpu", "SciPy is not installed"
    else:
        yield ("scipy.ndimage.label(image)", "cpu",
               lambda: (host_timer(lambda: scipy.ndimage.label(image, structure)),
                        lambda: scipy.ndimage.label(image, structure)[0].astype(np.int32)))
    cv2, why = import_cv2()
    if cv2 is None:
        yield "opencv cv2.connectedComponents", "cpu", why
    else:
        connectivity = 8 if parameters.get("connectivity", "4") == "8" else 4
        binary = (image != 0).astype(np.uint8)
        for threads in opencv_thread_counts():
            label = with_threads(cv2, threads,
                                 lambda: cv2.connectedComponents(binary, connectivity=connectivity, ltype=cv2.CV_32S))
            yield (f"opencv cv2.connectedComponents ({threads} thread{'s' * (threads > 1)})", "cpu",
                   lambda label=label: (host_timer(label), lambda: label()[1].astype(np.int32)), threads)
    cupy, why = import_cupy()
    if cupy is None:
        yield "cupyx.scipy.ndimage.label", "gpu", why
        return
    import cupyx.scipy.ndimage
    di = cupy.asarray(image)
    ds = None if structure is None else cupy.asarray(structure)
    yield ("cupyx.scipy.ndimage.label(image)", "gpu",
           lambda: (cupy_timer(cupy, lambda: cupyx.scipy.ndimage.label(di, ds)),
                    lambda: cupy.asnumpy(cupyx.scipy.ndimage.label(di, ds)[0]).astype(np.int32)))


def spot_finding_settings(parameters):
    get = lambda key, default: type(default)(float(parameters.get(key, default)))
    return (get("kernel_size", 3), get("sigma_b", 6.0), get("sigma_s", 3.0), get("min_count", 2),
            get("threshold", 0.0))


def dispersion_test(xp, image, mask, m, x, y, sigma_b, sigma_s, min_count, threshold):
    """DIALS' four comparisons on float64 window sums (xp: numpy or cupy), in DIALS' order of operations."""
    v = image.astype(xp.float64)
    a = m * y - x * x - x * (m - 1)
    b = m * v - x
    c = x * sigma_b * xp.sqrt(xp.maximum(2 * (m - 1), 0))
    d = sigma_s * xp.sqrt(x * m)
    return ((mask == 1) & (m >= min_count) & (v > threshold) & (a > c) & (b > d)).astype(xp.uint8)


def spot_finding_peers(inputs, parameters):
    """DIALS' own DispersionThreshold (one core, float64 images as its spot finder passes them), frame by frame;
    and the CuPy formulation with cupyx.scipy.ndimage.uniform_filter: the window means of mask, v·mask and
    v²·mask (zero outside the frame), times the window size and rounded back to the exact integers, then DIALS'
    test. Both must give the reference mask bit for bit."""
    image, mask = inputs["image"], inputs["mask"]
    kernel_size, sigma_b, sigma_s, min_count, threshold = spot_finding_settings(parameters)
    if image.ndim == 2:
        image, mask = image[None], mask[None]
    frames, height, width = image.shape

    def compare(got, expected):
        want = expected["signal"].reshape(got.shape)
        differ = int(np.count_nonzero(got != want))
        return differ == 0, "identical" if differ == 0 else f"differs from the reference in {differ} pixels"
    try:
        from dials.algorithms.image.threshold import DispersionThreshold
        from scitbx.array_family import flex
    except Exception as error:
        yield "DIALS DispersionThreshold", "cpu", f"DIALS is not importable ({type(error).__name__}): python3-dials"
    else:
        algorithm = DispersionThreshold((height, width), (kernel_size, kernel_size), sigma_b, sigma_s, threshold,
                                        min_count)
        images = [flex.double(image[f].astype(np.float64)) for f in range(frames)]
        masks = [flex.bool(mask[f].astype(bool)) for f in range(frames)]
        results = [flex.bool(flex.grid(height, width)) for _ in range(frames)]

        def dials():
            for f in range(frames):
                algorithm(images[f], masks[f], results[f])
        yield ("DIALS DispersionThreshold (float64 frames)", "cpu",
               lambda: (host_timer(dials), lambda: np.stack([r.as_numpy_array() for r in results]).astype(np.uint8),
                        compare))
    cupy, why = import_cupy()
    if cupy is None:
        yield "cupyx uniform_filter formulation", "gpu", why
        return
    import cupyx.scipy.ndimage
    size, window = (1, 2 * kernel_size + 1, 2 * kernel_size + 1), float((2 * kernel_size + 1) ** 2)
    di, dm = cupy.asarray(image), cupy.asarray(mask)

    def dispersion():
        valid = dm.astype(cupy.float64)
        v = di.astype(cupy.float64) * valid
        box = lambda a: cupy.rint(cupyx.scipy.ndimage.uniform_filter(a, size, mode="constant") * window)
        return dispersion_test(cupy, di, dm, box(valid), box(v), box(v * v), sigma_b, sigma_s, min_count, threshold)
    yield ("cupyx.scipy.ndimage.uniform_filter formulation (float64)", "gpu",
           lambda: (cupy_timer(cupy, dispersion), lambda: cupy.asnumpy(dispersion()), compare))


def median_filter_peers(inputs, parameters):
    """scipy.ndimage.median_filter and cupyx.scipy.ndimage.median_filter with size (1, k, k), mode 'reflect':
    frame by frame, the reference exactly; remove_outlier as numpy.where on the float64 difference. The host
    peer is skipped above 2^25 pixels (minutes on one core for its ten repetitions)."""
    image = inputs["image"]
    k = int(float(parameters.get("size", 3)))
    size = (1, k, k) if image.ndim == 3 else (k, k)
    outlier = parameters.get("mode", "median") == "remove_outlier"
    diff, sign = float(parameters.get("diff", 0)), 1.0 if parameters.get("direction", "bright") == "bright" else -1.0

    def finish(xp, pixels, median):
        if not outlier:
            return median
        return xp.where(sign * (pixels.astype(xp.float64) - median.astype(xp.float64)) > diff, median, pixels)
    try:
        import scipy.ndimage
    except ImportError:
        yield "scipy.ndimage.median_filter", "cpu", "SciPy is not installed"
    else:
        if image.size > 1 << 25:
            yield "scipy.ndimage.median_filter", "cpu", f"{image.size} pixels: too slow on one core (run it at workshop)"
        else:
            run = lambda: finish(np, image, scipy.ndimage.median_filter(image, size=size, mode="reflect"))
            yield "scipy.ndimage.median_filter", "cpu", lambda: (host_timer(run), run)
    yield from opencv_median_peers(image, k, finish)
    cupy, why = import_cupy()
    if cupy is None:
        yield "cupyx.scipy.ndimage.median_filter", "gpu", why
        return
    import cupyx.scipy.ndimage
    di = cupy.asarray(image)
    device_run = lambda: finish(cupy, di, cupyx.scipy.ndimage.median_filter(di, size=size, mode="reflect"))
    yield ("cupyx.scipy.ndimage.median_filter", "gpu",
           lambda: (cupy_timer(cupy, device_run), lambda: cupy.asnumpy(device_run())))


def opencv_median_peers(image, k, finish):
    """cv2.medianBlur frame by frame. For float32 and uint16 OpenCV has k = 3 and 5 only. Its border is
    BORDER_REPLICATE: at k = 3 that is scipy's reflect exactly (the edge pixel repeated); at k = 5 the outer two
    rows and columns differ, so the check compares the interior exactly and counts the border's differences."""
    name = "opencv cv2.medianBlur per frame"
    cv2, why = import_cv2()
    if cv2 is None:
        yield name, "cpu", why
        return
    if k not in (3, 5) and image.dtype != np.uint8:
        yield name, "cpu", f"OpenCV's medianBlur has k = 3 and 5 only for {image.dtype} (k = {k})"
        return
    frames = image.reshape((-1,) + image.shape[-2:])
    out = np.empty_like(frames)

    def blur():
        for f in range(frames.shape[0]):
            cv2.medianBlur(frames[f], k, dst=out[f])
        return finish(np, frames, out).reshape(image.shape)

    def compare(got, expected):
        want = next(iter(expected.values())).reshape(got.shape)
        differ = got != want
        if not differ.any():
            return True, "identical"
        r = k // 2
        interior = differ[..., r:-r, r:-r]
        if interior.any():
            return False, f"differs from the reference in {int(np.count_nonzero(differ))} pixels, inside the border too"
        return True, (f"interior identical; replicate border differs from reflect in {int(np.count_nonzero(differ))}"
                      f" pixels of the outer {r}")
    for threads in opencv_thread_counts():
        run = with_threads(cv2, threads, blur)
        yield (f"{name} ({threads} thread{'s' * (threads > 1)})", "cpu",
               lambda run=run: (host_timer(run), run, compare), threads)


def batched_matmul_peers(inputs, parameters):
    """numpy.matmul and cupy.matmul on the whole batch (both broadcast over the leading axis), judged as the
    suite judges its rungs: every element within 1e-5 of its scale, sum_k |a_ik| |b_kj| (the reference's
    `scale`). NumPy loops over the batch and may hand each product to its BLAS; the threads are BLAS's."""
    a, b = inputs["a"], inputs["b"]

    def compare(got, expected):
        want, scale = expected["c"].astype(np.float64), expected["scale"]
        if got.shape != want.shape:
            return False, f"shape {got.shape}, expected {want.shape}"
        outside = int(np.count_nonzero(~(np.abs(got.astype(np.float64) - want) <= 1e-5 * scale)))
        return outside == 0, ("every element within 1e-5 of its scale" if outside == 0 else
                              f"{outside} elements off by more than 1e-5 of their scale")
    yield ("numpy np.matmul(a, b)", "cpu",
           lambda: (host_timer(lambda: np.matmul(a, b)), lambda: np.matmul(a, b), compare))
    cupy, why = import_cupy()
    if cupy is None:
        yield "cupy.matmul(a, b)", "gpu", why
        return
    da, db = cupy.asarray(a), cupy.asarray(b)
    yield ("cupy.matmul(a, b)", "gpu",
           lambda: (cupy_timer(cupy, lambda: cupy.matmul(da, db)), lambda: cupy.asnumpy(cupy.matmul(da, db)), compare))


def compare_arrays(got, want):
    """The default check: the peer's array is the reference, bit for bit."""
    identical = got.shape == want.shape and got.dtype == want.dtype and np.array_equal(got, want)
    return identical, ("identical" if identical else
                       f"differs from the reference in {int(np.count_nonzero(got != want))} elements"
                       if got.shape == want.shape else f"shape {got.shape}, expected {want.shape}")


PEERS = {"vector_add": vector_add_peers, "histogram": histogram_peers, "polygon_mask": polygon_mask_peers,
         "primes": primes_peers, "convolution": convolution_peers, "kappa_sigma": kappa_sigma_peers,
         "labelling": labelling_peers, "spot_finding": spot_finding_peers,
         "median_filter": median_filter_peers, "batched_matmul": batched_matmul_peers}


def run_peers(ladder, entry, min_time, time_budget):
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        command = [ladder, "generate", entry["exercise"], "--size", entry["size"], "--seed", str(entry["seed"]),
                   "--out", directory]
        for key, value in entry["parameters"].items():
            command += ["--param", f"{key}={value}"]
        generated = subprocess.run(command, capture_output=True, text=True)
        if generated.returncode != 0:
            fail(PROGRAM, f"`{' '.join(command)}` failed: {generated.stderr.strip()}")
        files = {p.stem: np.load(p) for p in Path(directory).glob("*.npy")}
        inputs = {k: v for k, v in files.items() if not k.startswith("expected_")}
        expected = {k[len("expected_"):]: v for k, v in files.items() if k.startswith("expected_")}
        for name, device, make, *threads in PEERS[entry["exercise"]](inputs, entry["parameters"]):
            row = {"name": name, "device": device}
            if threads:
                row["threads"] = threads[0]
            if isinstance(make, str):
                row.update(status="skipped", reason=make)
                rows.append(row)
                continue
            timer, output, *custom = make()
            compare = custom[0] if custom else compare_arrays
            samples = repeat(timer, min_time, time_budget)
            ok, detail = compare(output(), expected if custom else next(iter(expected.values())))
            row.update(status="ok" if ok else "failed", check={"ok": bool(ok), "detail": detail},
                       timings={"compute": summarise(samples)})
            rows.append(row)
            print(f"  peer {entry['exercise']}: {name:45} {row['status']:7} {statistics.median(samples) * 1e3:9.3f} ms")
    return rows


def merge_replicates(passes):
    """One list of peer rows from several replicates: samples pooled, each replicate's median kept."""
    merged = []
    for replicate_rows in zip(*passes):
        row = dict(replicate_rows[0])
        bad = next((r for r in replicate_rows if r["status"] != "ok"), None)
        if bad is not None or len(replicate_rows) < 2:
            merged.append(bad or row)
            continue
        medians = [r["timings"]["compute"]["median_s"] for r in replicate_rows]
        compute = summarise([s for r in replicate_rows for s in r["timings"]["compute"]["samples_s"]])
        compute["replicate_medians_s"] = medians
        middle = statistics.median(medians)
        compute["replicate_spread"] = (max(medians) - min(medians)) / middle if middle > 0 else 0.0
        row["timings"] = {"compute": compute}
        merged.append(row)
    return merged


def run_time_budget(results, default=60.0):
    """The time budget the rungs ran under, so that the peers in the same file are held to the same: the
    context's timing policy, or in runs before it was recorded `--time-budget S` on the run's command line;
    `ladder run`'s default where neither says."""
    context = results.get("context", {})
    recorded = (context.get("timing_policy") or {}).get("time_budget_s")
    if isinstance(recorded, (int, float)) and recorded > 0:
        return float(recorded)
    words = context.get("command_line", "").split()
    for word, value in zip(words, words[1:]):
        if word == "--time-budget":
            try:
                return float(value)
            except ValueError:
                break
    return default


def main():
    parser = argparse.ArgumentParser(prog="peers", description=__doc__.split("\n")[0])
    parser.add_argument("results")
    parser.add_argument("--ladder", default=os.environ.get("LADDER", "ladder"), help="the ladder program")
    parser.add_argument("--min-time", type=float, default=0.2)
    parser.add_argument("--time-budget", type=float, default=None,
                        help="seconds of repetitions one peer may take (default: the run's `ladder run --time-budget`,"
                             " else 60)")
    parser.add_argument("--replicates", type=int, default=0,
                        help="time every peer this many times, interleaved (default: as many as the run's rungs)")
    args = parser.parse_args()
    if args.results.endswith(".gz"):  # it writes the peers back into the file, as plain JSON
        fail(PROGRAM, f"{args.results}: a gzipped results file; peers.py adds to a plain one (gunzip it first)")
    results = load_results(PROGRAM, args.results)
    time_budget = args.time_budget if args.time_budget is not None else run_time_budget(results)
    if not time_budget > 0:
        fail(PROGRAM, f"--time-budget {time_budget}: give a number of seconds above 0")
    entries = [entry for entry in results["results"] if entry["exercise"] in PEERS]
    replicates = args.replicates or max([entry.get("replicates", 1) for entry in entries] + [1])
    # Interleaved as `ladder run --replicates` does: every exercise once, then again.
    passes = [[] for _ in entries]
    for replicate in range(replicates):
        if replicates > 1:
            print(f"== peers, replicate {replicate + 1} of {replicates}", flush=True)
        for entry, entry_passes in zip(entries, passes):
            entry_passes.append(run_peers(args.ladder, entry, args.min_time, time_budget))
    for entry, entry_passes in zip(entries, passes):
        entry["peers"] = merge_replicates(entry_passes)
    temporary = Path(args.results).with_suffix(".peers.tmp")
    temporary.write_text(json.dumps(results, indent=1) + "\n")
    temporary.replace(args.results)


if __name__ == "__main__":
    main()
