"""polygon_mask's peers: the libraries a participant would call instead, timed by reports/peers.py on the
same inputs as the rungs. `peers(inputs, parameters)` yields them (reports/peer_tools.py: the protocol)."""

import numpy as np

from peer_tools import host_timer


def peers(inputs, parameters):
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
