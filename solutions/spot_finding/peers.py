"""spot_finding's peers: the libraries a participant would call instead, timed by reports/peers.py on the
same inputs as the rungs. `peers(inputs, parameters)` yields them (reports/peer_tools.py: the protocol)."""

import numpy as np

from peer_tools import host_timer, cupy_peer, import_cupy


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


def peers(inputs, parameters):
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
    # One name whether DIALS is there or not: `ladder compare` matches peers across runs by name.
    dials_name = "DIALS DispersionThreshold (float64 frames)"
    try:
        from dials.algorithms.image.threshold import DispersionThreshold
        from scitbx.array_family import flex
    except Exception as error:
        yield dials_name, "cpu", f"DIALS is not importable ({type(error).__name__}): python3-dials"
    else:
        algorithm = DispersionThreshold((height, width), (kernel_size, kernel_size), sigma_b, sigma_s, threshold,
                                        min_count)
        images = [flex.double(image[f].astype(np.float64)) for f in range(frames)]
        masks = [flex.bool(mask[f].astype(bool)) for f in range(frames)]
        results = [flex.bool(flex.grid(height, width)) for _ in range(frames)]

        def dials():
            for f in range(frames):
                algorithm(images[f], masks[f], results[f])
        yield (dials_name, "cpu",
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
    yield cupy_peer(cupy, "cupyx.scipy.ndimage.uniform_filter formulation (float64)", dispersion, compare)
