"""histogram, python_cupy: the cuda rung's own kernel, launched from Python.

CuPy's RawModule compiles kernels/histogram/histogram_shared.cuh, the file
the C++ cuda rung includes, with NVRTC when the rung is prepared (its
first-call cost): 32 sub-histograms a block in shared memory, one a lane,
16-byte loads, a grid-stride loop over the resident blocks. As in `cuda`,
two sets of counts in turn: each launch zeroes the set the next one adds
into, so that a call is one launch. Only the launch path differs.
"""
import os

import cupy

from cuda_source import device_name, kernel_module

REQUIRES = ("cupy",)
DEVICE = "cuda"

THREADS = 512  # the kernel's kHistogramThreads
VECTORS_PER_THREAD = 8  # at least this many 16-byte loads a thread, as the cuda rung asks


class Rung:
    def prepare(self, inputs, outputs, context):
        module = kernel_module(os.path.join(context["kernels"], "histogram_shared.cuh"), ["histogram_shared"])
        self.kernel = module.get_function("histogram_shared")
        self.values, self.counts = inputs["values"], outputs["counts"]
        self.d_values = cupy.empty(self.values.shape, cupy.uint8)
        self.d_counts = [cupy.zeros(256, cupy.uint32) for _ in range(2)]  # this call's and the next call's
        self.current = 0
        # The blocks resident at once: an SM of an A100, H100 or H200 holds
        # 2048 threads, 4 blocks (the kernel's __launch_bounds__ asks for as
        # many), but no more than the values need.
        properties = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
        per_sm = properties["maxThreadsPerMultiProcessor"] // THREADS
        multiprocessors = properties["multiProcessorCount"]
        needed = -(-self.values.size // (16 * VECTORS_PER_THREAD * THREADS))
        self.blocks = max(1, min(per_sm * multiprocessors, needed))

    def upload(self):
        self.d_values.set(self.values)

    def compute(self):
        # Each call adds into the set the call before zeroed, and zeroes the other.
        self.current = 1 - self.current
        self.kernel((self.blocks,), (THREADS,), (self.d_values, cupy.uint64(self.values.size),
                                                self.d_counts[self.current], self.d_counts[1 - self.current]))

    def download(self):
        self.d_counts[self.current].get(out=self.counts)

    def device_name(self):
        return device_name()
