"""batched_matmul's peers: the libraries a participant would call instead, timed by reports/peers.py on the
same inputs as the rungs. `peers(inputs, parameters)` yields them (reports/peer_tools.py: the protocol)."""

import numpy as np

from peer_tools import host_timer, cupy_peer, import_cupy


def peers(inputs, parameters):
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
    yield cupy_peer(cupy, "cupy.matmul(a, b)", lambda: cupy.matmul(da, db), compare)
