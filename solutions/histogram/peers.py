"""histogram's peers: the libraries a participant would call instead, timed by reports/peers.py on the
same inputs as the rungs. `peers(inputs, parameters)` yields them (reports/peer_tools.py: the protocol)."""

import numpy as np

from peer_tools import host_timer, cupy_peer, import_cv2, opencv_thread_counts, with_threads, import_cupy


def peers(inputs, parameters):
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
    yield cupy_peer(cupy, "cupy.bincount(values, minlength=256)", lambda: cupy.bincount(dv, minlength=256),
                    dtype=np.uint32)
