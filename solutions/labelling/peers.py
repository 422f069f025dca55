"""labelling's peers: the libraries a participant would call instead, timed by reports/peers.py on the
same inputs as the rungs. `peers(inputs, parameters)` yields them (reports/peer_tools.py: the protocol)."""

import numpy as np

from peer_tools import host_timer, cupy_peer, import_cv2, opencv_thread_counts, with_threads, import_cupy


def peers(inputs, parameters):
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
    yield cupy_peer(cupy, "cupyx.scipy.ndimage.label(image)", lambda: cupyx.scipy.ndimage.label(di, ds)[0],
                    dtype=np.int32)
