"""OpenCV's filter2D on one thread, as reports/peers.py runs it (the full
convolution: the flipped kernel over the zero-padded image), on the image
and kernel given (.npy files): the median and best of 9 passes."""
import sys
import time

import cv2
import numpy as np

cv2.setNumThreads(1)
image, kernel = np.load(sys.argv[1]), np.load(sys.argv[2])
kh, kw = kernel.shape
flipped = np.ascontiguousarray(kernel[::-1, ::-1])
times = []
for _ in range(9):
    start = time.perf_counter()
    padded = cv2.copyMakeBorder(image, kh - 1, kh - 1, kw - 1, kw - 1, cv2.BORDER_CONSTANT, value=0)
    cv2.filter2D(padded, -1, flipped, borderType=cv2.BORDER_CONSTANT)
    times.append(time.perf_counter() - start)
print(f"  OpenCV filter2D, 1 thread: median {1e3 * np.median(times):.1f} ms, best {1e3 * min(times):.1f} ms")
