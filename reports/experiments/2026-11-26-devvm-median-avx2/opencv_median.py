"""OpenCV's medianBlur on one thread, frame by frame, on the stack given
(a .npy file), k = 3 and 5: the median and best of 15 passes."""
import sys
import time

import cv2
import numpy as np

cv2.setNumThreads(1)
image = np.load(sys.argv[1])
out = np.empty_like(image)
for k in (3, 5):
    times = []
    for _ in range(15):
        start = time.perf_counter()
        for f in range(image.shape[0]):
            cv2.medianBlur(image[f], k, dst=out[f])
        times.append(time.perf_counter() - start)
    print(f"  OpenCV medianBlur k = {k}, 1 thread: median {1e3 * np.median(times):.2f} ms, best {1e3 * min(times):.2f} ms")
