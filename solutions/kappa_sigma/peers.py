"""kappa_sigma's peers: the libraries a participant would call instead, timed by reports/peers.py on the
same inputs as the rungs. `peers(inputs, parameters)` yields them (reports/peer_tools.py: the protocol)."""

import functools

import numpy as np

from peer_tools import host_timer, cupy_peer, import_cupy


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


def peers(inputs, parameters):
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
        yield "astropy.stats.sigma_clip (inclusive bounds)", "cpu", f"astropy unavailable ({type(error).__name__}): Debian python3-astropy"
    else:
        # Median centre, population std, to convergence; it keeps values ON a bound too (the lesson's loop
        # does not), so its count may differ by those values: the check says by how many. The centre and
        # spread are NumPy's, named, not "median" and "std": for those astropy takes bottleneck's where it
        # is installed, whose float32 std sums in float32 (0.3 % low on the workshop sky, 327 pixels
        # fewer kept). The std sums in double, as the reference does.
        std_in_double = functools.partial(np.std, dtype=np.float64)
        clip = lambda: sigma_clip(image, sigma=kappa, maxiters=None, cenfunc=np.median, stdfunc=std_in_double,
                                  masked=True, copy=False)
        yield ("astropy.stats.sigma_clip (inclusive bounds)", "cpu",
               lambda: (host_timer(clip), lambda: clip().compressed(), compare))
    cupy, why = import_cupy()
    if cupy is None:
        yield "cupy: the lesson's loop", "gpu", why
        return
    di = cupy.asarray(image)
    yield cupy_peer(cupy, "cupy: the lesson's loop", lambda: lesson_kappa_sigma(cupy, di, kappa), compare)
