"""The CuPy median_filter peer, alone: its CUDA-event time in fresh processes, with and without the output
allocated per call, and the GPU's SM clock while it runs. Run: python3 peer_spread.py [PROCESSES]."""
import subprocess
import sys

ONE = r"""
import cupy, cupyx.scipy.ndimage, numpy
image = cupy.asarray(numpy.random.default_rng(1).random((8, 1024, 1024), dtype=numpy.float32))
out = cupy.empty_like(image)
def timed(call, repetitions=300):
    start, stop, times = cupy.cuda.Event(), cupy.cuda.Event(), []
    for _ in range(repetitions):
        start.record(); call(); stop.record(); stop.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, stop) * 1e3)
    times.sort(); return times[len(times) // 2]
allocating = lambda: cupyx.scipy.ndimage.median_filter(image, size=(1, 3, 3), mode="reflect")
into = lambda: cupyx.scipy.ndimage.median_filter(image, size=(1, 3, 3), mode="reflect", output=out)
allocating(); into()
print(f"allocating {timed(allocating):.1f} us  into-output {timed(into):.1f} us  allocating {timed(allocating):.1f} us")
"""

for process in range(int(sys.argv[1]) if len(sys.argv) > 1 else 8):
    clock = subprocess.Popen(["nvidia-smi", "--query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw",
                              "--format=csv,noheader", "-lms", "500"], stdout=subprocess.PIPE, text=True)
    result = subprocess.run([sys.executable, "-c", ONE], capture_output=True, text=True)
    clock.terminate()
    samples = clock.communicate()[0].split("\n")
    print(f"process {process}: {result.stdout.strip() or result.stderr.strip()[-300:]}  "
          f"clocks: {samples[len(samples) // 2].strip()}")
