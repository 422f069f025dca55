"""median_filter's peers: the libraries a participant would call instead, timed by reports/peers.py on the
same inputs as the rungs. `peers(inputs, parameters)` yields them (reports/peer_tools.py: the protocol)."""

import numpy as np

from peer_tools import host_timer, cupy_peer, import_cv2, opencv_thread_counts, with_threads, import_cupy


def peers(inputs, parameters):
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
    yield cupy_peer(cupy, "cupyx.scipy.ndimage.median_filter", device_run)


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
