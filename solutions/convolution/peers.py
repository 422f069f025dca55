"""convolution's peers: the libraries a participant would call instead, timed by reports/peers.py on the
same inputs as the rungs. `peers(inputs, parameters)` yields them (reports/peer_tools.py: the protocol)."""

import numpy as np

from peer_tools import host_timer, cupy_peer, import_cv2, opencv_thread_counts, with_threads, import_cupy


def peers(inputs, parameters):
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
    yield cupy_peer(cupy, "cupyx.scipy.signal.convolve2d(image, kernel)",
                    lambda: cupyx.scipy.signal.convolve2d(di, dk), compare)
